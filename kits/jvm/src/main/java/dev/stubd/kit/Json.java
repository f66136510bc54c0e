package dev.stubd.kit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON the admin API speaks, with no library: objects read as {@code Map<String, Object>} (in
 * order), arrays as {@code List<Object>}, numbers as {@code Double}, and back. Bounded: nesting
 * deeper than 512 is refused, so a broken answer cannot overflow the stack.
 */
public final class Json {
    private static final int MAX_DEPTH = 512;
    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    /** Reads one JSON document. */
    public static Object parse(String text) {
        Json reader = new Json(text);
        Object value = reader.value(0);
        reader.space();
        if (reader.at != text.length()) throw reader.problem("text after the document");
        return value;
    }

    /** Writes a value made of maps, lists, strings, numbers, booleans and nulls, on one line. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String text) {
            string(text, out);
        } else if (value instanceof Boolean flag) {
            out.append(flag);
        } else if (value instanceof Double number && number == Math.rint(number) && Math.abs(number) < 1e15) {
            out.append(number.longValue());
        } else if (value instanceof Number number) {
            out.append(number);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!first) out.append(',');
                first = false;
                string(String.valueOf(entry.getKey()), out);
                out.append(':');
                write(entry.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) out.append(',');
                write(list.get(i), out);
            }
            out.append(']');
        } else if (value instanceof Raw raw) {
            out.append(raw.text);
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }

    /** JSON text written as it is (checked when made). */
    public record Raw(String text) {
        /** Checks {@code text} is one JSON document. */
        public Raw {
            parse(text);
        }
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) throw problem("nested deeper than " + MAX_DEPTH);
        space();
        if (at >= text.length()) throw problem("the document ends early");
        char c = text.charAt(at);
        switch (c) {
            case '{': {
                at++;
                Map<String, Object> map = new LinkedHashMap<>();
                space();
                if (peek('}')) return map;
                do {
                    space();
                    if (!peek('"')) throw problem("expected a member name");
                    at--;
                    String name = string();
                    space();
                    expect(':');
                    map.put(name, value(depth + 1));
                    space();
                } while (peek(','));
                expect('}');
                return map;
            }
            case '[': {
                at++;
                List<Object> list = new ArrayList<>();
                space();
                if (peek(']')) return list;
                do {
                    list.add(value(depth + 1));
                    space();
                } while (peek(','));
                expect(']');
                return list;
            }
            case '"':
                return string();
            case 't':
                word("true");
                return Boolean.TRUE;
            case 'f':
                word("false");
                return Boolean.FALSE;
            case 'n':
                word("null");
                return null;
            default:
                return number();
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '"') return out.toString();
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) break;
            char escaped = text.charAt(at++);
            switch (escaped) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    if (at + 4 > text.length()) throw problem("a \\u escape ends early");
                    out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> out.append(escaped);
            }
        }
        throw problem("a string is not closed");
    }

    private Double number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
        if (start == at) throw problem("unexpected '" + text.charAt(at) + "'");
        try {
            return Double.valueOf(text.substring(start, at));
        } catch (NumberFormatException error) {
            throw problem("not a number: " + text.substring(start, at));
        }
    }

    private void word(String word) {
        if (!text.startsWith(word, at)) throw problem("expected " + word);
        at += word.length();
    }

    private void space() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
    }

    private boolean peek(char c) {
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!peek(c)) throw problem("expected '" + c + "'");
    }

    private IllegalArgumentException problem(String what) {
        return new IllegalArgumentException("JSON at offset " + at + ": " + what);
    }
}
