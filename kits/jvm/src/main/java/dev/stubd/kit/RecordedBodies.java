package dev.stubd.kit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A recorded folder's fixtures as the admin API takes them: a body the recorder wrote to
 * {@code __files/} and named with {@code bodyFile} is inlined as {@code base64} (runtime routes
 * carry their bodies), with the Content-Type its extension stands for when the recording kept none.
 */
final class RecordedBodies {
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("json", "application/json"), Map.entry("txt", "text/plain; charset=utf-8"),
            Map.entry("html", "text/html; charset=utf-8"), Map.entry("htm", "text/html; charset=utf-8"),
            Map.entry("css", "text/css; charset=utf-8"), Map.entry("js", "text/javascript; charset=utf-8"),
            Map.entry("xml", "application/xml"), Map.entry("csv", "text/csv; charset=utf-8"), Map.entry("svg", "image/svg+xml"),
            Map.entry("png", "image/png"), Map.entry("jpg", "image/jpeg"), Map.entry("jpeg", "image/jpeg"), Map.entry("gif", "image/gif"),
            Map.entry("webp", "image/webp"), Map.entry("pdf", "application/pdf"), Map.entry("ndjson", "application/x-ndjson"),
            Map.entry("zip", "application/zip"));

    private RecordedBodies() {}

    static Object inlined(Object document, Path folder, String file) throws IOException {
        if (document instanceof List<?> list) {
            List<Object> items = new ArrayList<>();
            for (Object item : list) items.add(inlined(item, folder, file));
            return items;
        }
        if (!(document instanceof Map<?, ?> map)) return document;
        Map<String, Object> result = new LinkedHashMap<>();
        Object bodyFile = map.get("bodyFile");
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            String key = String.valueOf(entry.getKey());
            if (key.equals("bodyFile") && bodyFile instanceof String name) {
                if (name.startsWith("/") || List.of(name.split("/")).contains("..")) {
                    throw new IllegalArgumentException(folder + "/" + file + ": bodyFile \"" + name + "\": must be a path inside __files/");
                }
                Path body = folder.resolve("__files").resolve(name);
                if (!Files.isRegularFile(body)) {
                    throw new IllegalArgumentException(folder + "/" + file + ": bodyFile \"" + name + "\": no such file (" + body + "); record the test again");
                }
                result.put("base64", Base64.getEncoder().encodeToString(Files.readAllBytes(body)));
            } else {
                result.put(key, inlined(entry.getValue(), folder, file));
            }
        }
        if (bodyFile instanceof String name && !Boolean.FALSE.equals(map.get("defaultHeaders"))) {
            Map<String, Object> headers = new LinkedHashMap<>();
            if (result.get("headers") instanceof Map<?, ?> given) given.forEach((k, v) -> headers.put(String.valueOf(k), v));
            if (headers.keySet().stream().noneMatch(h -> h.equalsIgnoreCase("Content-Type"))) {
                int dot = name.lastIndexOf('.');
                headers.put("Content-Type", TYPES.getOrDefault(dot < 0 ? "" : name.substring(dot + 1).toLowerCase(), "application/octet-stream"));
            }
            result.put("headers", headers);
        }
        return result;
    }
}
