package dev.stubd.kit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One test's share of a stubd: stubs only its requests see, its own sequence positions, scenario
 * states and journal, selected by the {@code X-Stubd-Session} header the code under test sends
 * (the OkHttp interceptor adds it; {@link #headers()} for any other client). Thread-safe: it holds
 * no state of its own.
 */
public final class StubdSession {
    /** The header that puts a request in a session. */
    public static final String HEADER = "X-Stubd-Session";
    private final Stubd stubd;
    private final String id;

    StubdSession(Stubd stubd, String id) {
        this.stubd = stubd;
        this.id = id;
    }

    /** The session id ({@code X-Stubd-Session}). */
    public String id() {
        return id;
    }

    /** The server. */
    public Stubd stubd() {
        return stubd;
    }

    /** {@code X-Stubd-Session: id}: add it to every request the code under test makes. */
    public Map<String, String> headers() {
        return Map.of(HEADER, id);
    }

    /** {@code path} on stubd's address ({@code /users/1} → {@code http://127.0.0.1:8080/users/1}). */
    public String url(String path) {
        return stubd.baseURL() + (path.startsWith("/") ? path : "/" + path);
    }

    /** What an instrumented app is launched with: where stubd is and which session its requests belong to. */
    public Map<String, String> launchArguments() {
        return Map.of("STUBD_BASE_URL", stubd.baseURL(), "STUBD_SESSION", id);
    }

    /** An admin call in this session (see {@link Stubd#call}). */
    public Object call(String method, String template, List<String> params, Object body, Map<String, String> query) {
        return stubd.call(method, template, params, body, id, query);
    }

    /** Makes {@code method path} answer {@code answer} for this session only (beating fixtures and shared routes); the route's id. */
    public String stub(String method, String path, StubResponse answer) {
        return stub(method, path, answer, null);
    }

    /**
     * As {@link #stub(String, String, StubResponse)}, with more matchers in the fixture format
     * ({@code {"query": {"page": "2"}, "headers": {…}, "body": {…}}}).
     */
    public String stub(String method, String path, StubResponse answer, String requestMatchersJson) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("method", method);
        request.put("path", path);
        if (requestMatchersJson != null && Json.parse(requestMatchersJson) instanceof Map<?, ?> more) {
            more.forEach((key, value) -> request.put(String.valueOf(key), value));
        }
        Map<String, Object> route = new LinkedHashMap<>();
        route.put("request", request);
        route.putAll(answer.routeFields());
        return addRoutes(route).get(0);
    }

    /** Adds routes in the fixture format (a route, or a fixture file's {@code {"routes": […]}}, as JSON text); their ids. */
    public List<String> addRoutes(String fixtureJson) {
        return addRoutes(Json.parse(fixtureJson));
    }

    /** Adds the routes of a fixture file (its recorded {@code bodyFile}s inlined); their ids. */
    public List<String> stubFile(Path file) throws IOException {
        Path folder = file.toAbsolutePath().getParent();
        Object document = Json.parse(Files.readString(file, StandardCharsets.UTF_8));
        return addRoutes(RecordedBodies.inlined(document, folder, file.getFileName().toString()));
    }

    private List<String> addRoutes(Object document) {
        Map<?, ?> answer = (Map<?, ?>) call("POST", "routes", List.of(), document, Map.of());
        List<String> ids = new ArrayList<>();
        ((List<?>) answer.get("added")).forEach(item -> ids.add(String.valueOf(item)));
        return ids;
    }

    /** This session's journal entries, oldest first; {@code filters}: method, path, route, matched. */
    public List<Map<String, Object>> requests(Map<String, String> filters) {
        Map<?, ?> answer = (Map<?, ?>) call("GET", "requests", List.of(), null, filters);
        List<Map<String, Object>> entries = new ArrayList<>();
        for (Object item : (List<?>) answer.get("requests")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> entry = (Map<String, Object>) item;
            entries.add(entry);
        }
        return entries;
    }

    /** Every request of this session, oldest first. */
    public List<Map<String, Object>> requests() {
        return requests(Map.of());
    }

    /** How many of this session's requests a route answered for {@code method path} (re-sends after a fault not counted). */
    public int count(String method, String path) {
        int count = 0;
        for (Map<String, Object> entry : requests(Map.of("method", method, "path", path, "matched", "true"))) {
            if (!Boolean.TRUE.equals(entry.get("resend"))) count++;
        }
        return count;
    }

    /** Fails with {@link StubdExpectationError}, listing this session's misses and their closest routes, unless exactly {@code count} matched. */
    public void expect(String method, String path, int count) {
        int actual = count(method, path);
        if (actual == count) return;
        List<String> misses = misses(Mode.PLAYBACK);
        throw new StubdExpectationError("session " + id + ": expected " + count + " × " + method + " " + path + ", got " + actual
                + (misses.isEmpty() ? "" : "\nrequests that matched no stub:\n  " + String.join("\n  ", misses)));
    }

    /**
     * The strict check, for the end of a test: fails listing every stub this session added that no
     * request reached, and every request of this session that reached no stub (with its closest route).
     */
    public void verifyStrict() {
        verifyStrict(Mode.current());
    }

    /** As {@link #verifyStrict()}; while recording, a request forwarded to the real API is not a miss. */
    public void verifyStrict(Mode mode) {
        List<String> unused = new ArrayList<>();
        for (Object item : (List<?>) ((Map<?, ?>) call("GET", "routes", List.of(), null, Map.of())).get("routes")) {
            Map<?, ?> entry = (Map<?, ?>) item;
            if (!id.equals(entry.get("session")) || ((Number) entry.get("hits")).intValue() != 0) continue;
            Map<?, ?> route = entry.get("route") instanceof Map<?, ?> map ? map : Map.of();
            Map<?, ?> request = route.get("request") instanceof Map<?, ?> map ? map : Map.of();
            Object path = Stream.of("path", "pathTemplate", "pathPattern", "urlPattern").<Object>map(request::get).filter(p -> p != null).findFirst().orElse("");
            unused.add((route.get("name") != null ? route.get("name") : entry.get("id")) + ": " + request.get("method") + " " + path
                    + " → " + entry.get("answers") + ", never requested");
        }
        List<String> misses = misses(mode);
        if (unused.isEmpty() && misses.isEmpty()) return;
        throw new StubdExpectationError("session " + id + " is strict:"
                + (unused.isEmpty() ? "" : "\nstubs no request reached:\n  " + String.join("\n  ", unused))
                + (misses.isEmpty() ? "" : "\nrequests that matched no stub:\n  " + String.join("\n  ", misses)));
    }

    /** This session's requests as canonical text (volatile headers dropped): compare with a stored snapshot. */
    public String snapshot() {
        return String.valueOf(((Map<?, ?>) call("GET", "requests/snapshot", List.of(), null, Map.of())).get("snapshot"));
    }

    /** Fixes the time {@code {{now}}} gives this session (ISO 8601 with a zone); null: real time again. */
    public void setClock(String isoTime) {
        if (isoTime == null) call("DELETE", "clock", List.of(), null, Map.of());
        else call("PUT", "clock", List.of(), Map.of("now", isoTime), Map.of());
    }

    /**
     * A forward-proxy port of this session's own (stubd serving with --proxy-port): the proxy URL
     * ({@code http://127.0.0.1:PORT}) a device or emulator is pointed at; every request through it
     * belongs to this session, no credentials needed. Closed when the session ends.
     */
    public String proxyPort() {
        Map<?, ?> answer = (Map<?, ?>) call("POST", "proxy/ports", List.of(), null, Map.of());
        return (String) answer.get("proxy");
    }

    /** Sets a scenario's state for this session. */
    public void setScenario(String name, String state) {
        call("PUT", "scenarios/{name}", List.of(name), Map.of("state", state), Map.of());
    }

    /**
     * Record once, replay after. {@code PLAYBACK}: the folder's fixture files become this
     * session's routes (none: fails, saying how to record). {@code RECORD}: misses go to
     * {@code upstream}, written into {@code folder} (a path on stubd's machine); {@code LIVE}:
     * forwarded, nothing kept. Call {@link #finishRecording(Mode)} at the end of the test.
     */
    public void useRecording(Path folder, String upstream, Mode mode) throws IOException {
        if (mode == Mode.PLAYBACK) {
            List<Path> files = new ArrayList<>();
            if (Files.isDirectory(folder)) {
                try (Stream<Path> listing = Files.list(folder)) {
                    listing.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().forEach(files::add);
                }
            }
            if (files.isEmpty()) {
                throw new StubdExpectationError(folder + ": no recording; run the test once with STUBD_MODE=record (and the real API reachable) to make it");
            }
            for (Path file : files) stubFile(file);
            return;
        }
        if (upstream == null) throw new IllegalArgumentException("STUBD_MODE=" + mode.name().toLowerCase() + " needs the real API's URL (upstream)");
        Path out = mode == Mode.RECORD ? folder.toAbsolutePath() : Path.of(System.getProperty("java.io.tmpdir"), "stubd-live-" + id);
        call("POST", "recording/start", List.of(), Map.of("upstream", upstream, "out", out.toString(), "overwrite", true), Map.of());
    }

    /** Ends a recording {@link #useRecording} started, answered once every file is written (nothing in playback). */
    public void finishRecording(Mode mode) {
        if (mode != Mode.PLAYBACK) call("POST", "recording/stop", List.of(), null, Map.of());
    }

    /** Removes this session's stubs, sequence positions, scenario states and journal entries. */
    public void end() {
        call("POST", "reset", List.of(), null, Map.of());
    }

    private List<String> misses(Mode mode) {
        List<String> misses = new ArrayList<>();
        for (Map<String, Object> entry : requests(Map.of("matched", "false"))) {
            Object nearMiss = entry.get("nearMiss");
            if (mode != Mode.PLAYBACK && nearMiss != null && nearMiss.toString().startsWith("proxied to ")) continue;
            misses.add(entry.get("method") + " " + entry.get("url") + (nearMiss == null || nearMiss.toString().isEmpty() ? "" : " → " + nearMiss));
        }
        return misses;
    }
}
