package dev.stubd.kit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A stubd server: where it is and its admin token. Uses only {@code HttpURLConnection}, which
 * Android has too, so an instrumented test opens sessions on the device (stubd at
 * {@code http://10.0.2.2:8080} from the emulator). Every admin call goes through {@link #call}
 * with a path of docs/admin-api.openapi.json.
 */
public final class Stubd {
    private static final SecureRandom RANDOM = new SecureRandom();
    private final String baseURL;
    private final String token;

    /** The stubd at {@code STUBD_BASE_URL} (or {@code http://127.0.0.1:8080}), token {@code STUBD_ADMIN_TOKEN} if set. */
    public Stubd() {
        this(setting("STUBD_BASE_URL", "stubd.baseURL", "http://127.0.0.1:8080"), setting("STUBD_ADMIN_TOKEN", "stubd.adminToken", null));
    }

    /** The stubd at {@code baseURL}, no token (stubd on 127.0.0.1 needs none). */
    public Stubd(String baseURL) {
        this(baseURL, null);
    }

    /** The stubd at {@code baseURL}; {@code token}: its {@code --admin-token} (null: none). */
    public Stubd(String baseURL, String token) {
        this.baseURL = baseURL.replaceAll("/+$", "");
        this.token = token;
    }

    /** Where stubd is. */
    public String baseURL() {
        return baseURL;
    }

    /** A session of its own, with a fresh id; end it with {@link StubdSession#end()}. */
    public StubdSession session() {
        byte[] bytes = new byte[6];
        RANDOM.nextBytes(bytes);
        StringBuilder id = new StringBuilder("jvm-");
        for (byte b : bytes) id.append(String.format("%02x", b));
        return new StubdSession(this, id.toString());
    }

    /** A session with this id (one an app or another process shares). */
    public StubdSession session(String id) {
        return new StubdSession(this, id);
    }

    /** Waits until stubd answers {@code GET /__stubd/ready}. */
    public void awaitReady(long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (true) {
            try {
                call("GET", "ready", List.of(), null, null, Map.of());
                return;
            } catch (StubdAdminException error) {
                if (System.currentTimeMillis() > deadline) throw error;
                Thread.sleep(50);
            }
        }
    }

    /**
     * One admin call: {@code template} is the document's path after /__stubd/ ({@code routes/{id}}),
     * filled from {@code params} in order; {@code body} is written as JSON; the answer's JSON.
     */
    public Object call(String method, String template, List<String> params, Object body, String session, Map<String, String> query) {
        List<String> rest = new ArrayList<>(params);
        StringBuilder path = new StringBuilder();
        for (String segment : template.split("/", -1)) {
            if (path.length() > 0) path.append('/');
            path.append(segment.startsWith("{") ? encode(rest.remove(0)) : segment);
        }
        StringBuilder search = new StringBuilder();
        query.forEach((name, value) -> {
            if (value == null) return;
            search.append(search.length() == 0 ? '?' : '&').append(encode(name)).append('=').append(encode(value));
        });
        String where = path.toString();
        HttpURLConnection connection = null;
        try {
            connection = (HttpURLConnection) new URL(baseURL + "/__stubd/" + where + search).openConnection();
            connection.setRequestMethod(method);
            connection.setConnectTimeout(10_000);
            connection.setReadTimeout(30_000);
            connection.setRequestProperty("Accept", "application/json");
            if (token != null) connection.setRequestProperty("Authorization", "Bearer " + token);
            if (session != null) connection.setRequestProperty(StubdSession.HEADER, session);
            if (body != null) {
                byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
                connection.setDoOutput(true);
                connection.setRequestProperty("Content-Type", "application/json");
                connection.setFixedLengthStreamingMode(bytes.length);
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(bytes);
                }
            }
            int status = connection.getResponseCode();
            InputStream stream = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            String text = stream == null ? "" : new String(readAll(stream), StandardCharsets.UTF_8);
            Object value;
            try {
                value = text.isEmpty() ? Map.of() : Json.parse(text);
            } catch (IllegalArgumentException notJSON) {
                throw new StubdAdminException(method, where, status, "the answer is not JSON: " + text.substring(0, Math.min(200, text.length())), List.of());
            }
            if (status >= 400) {
                Map<?, ?> refusal = value instanceof Map<?, ?> map ? map : Map.of();
                List<String> problems = new ArrayList<>();
                if (refusal.get("problems") instanceof List<?> list) list.forEach(item -> problems.add(String.valueOf(item)));
                throw new StubdAdminException(method, where, status, String.valueOf(refusal.get("error") != null ? refusal.get("error") : text), problems);
            }
            return value;
        } catch (IOException error) {
            throw new StubdAdminException(method, where, 0, "stubd at " + baseURL + " cannot be reached (" + error
                    + "): start it (make run, or stubd serve) or set STUBD_BASE_URL", List.of());
        } finally {
            if (connection != null) connection.disconnect();
        }
    }

    static byte[] readAll(InputStream stream) throws IOException {
        try (stream) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int read; (read = stream.read(buffer)) > 0; ) out.write(buffer, 0, read);
            return out.toByteArray();
        }
    }

    private static String encode(String text) {
        try {
            return URLEncoder.encode(text, "UTF-8").replace("+", "%20");  // the String overload: Android has it at every API level
        } catch (java.io.UnsupportedEncodingException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private static String setting(String variable, String property, String fallback) {
        String value = System.getProperty(property);
        if (value == null) value = System.getenv(variable);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
