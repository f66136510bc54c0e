package dev.stubd.kit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a stub answers (the Swift kit's name for it too), in the fixture format (docs/FIXTURES.md): a response with JSON, text or no
 * body; a fault; a stream; or a sequence of them answered in turn. Immutable: each method returns
 * a new answer.
 */
public final class StubResponse {
    private final Map<String, Object> fields;

    private StubResponse(Map<String, Object> fields) {
        this.fields = fields;
    }

    /** A response with this status and no body. */
    public static StubResponse status(int status) {
        return response(Map.of("status", (double) status));
    }

    /** A 200 response whose body is this JSON document (checked here: a typo fails the test at once). */
    public static StubResponse json(String json) {
        return response(Map.of("status", 200.0, "json", new Json.Raw(json)));
    }

    /** A 200 response with a text body. */
    public static StubResponse text(String text) {
        return response(Map.of("status", 200.0, "text", text));
    }

    /** A fault instead of a response: {@code reset}, {@code empty}, {@code truncated}, {@code badChunk}, {@code garbage} or {@code hang}. */
    public static StubResponse fault(String fault) {
        return new StubResponse(Map.of("fault", fault));
    }

    /** Events sent over time ({@code {"events": […], "pacing": {…}}}, docs/STREAMS.md). */
    public static StubResponse stream(String streamJson) {
        return new StubResponse(Map.of("stream", new Json.Raw(streamJson)));
    }

    /** Any answer in the fixture format, e.g. {@code {"llm": {…}}} or {@code {"networkError": {…}}}. */
    public static StubResponse fixture(String answerJson) {
        Object value = Json.parse(answerJson);
        if (!(value instanceof Map<?, ?> map)) throw new IllegalArgumentException("an answer is a JSON object: " + answerJson);
        Map<String, Object> fields = new LinkedHashMap<>();
        map.forEach((key, item) -> fields.put(String.valueOf(key), item));
        return new StubResponse(fields);
    }

    /** These answers in turn, then the last one again ({@code cycle}: from the first again). */
    public static StubResponse sequence(StubResponse... answers) {
        List<Object> responses = new ArrayList<>();
        for (StubResponse answer : answers) {
            if (answer.fields.containsKey("responses")) throw new IllegalArgumentException("a sequence cannot hold a sequence");
            responses.add(answer.isResponse() ? answer.fields.get("response") : answer.fields);
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("responses", responses);
        return new StubResponse(fields);
    }

    /** The same response with this status. */
    public StubResponse withStatus(int status) {
        return withResponseField("status", (double) status);
    }

    /** The same response with this header added. */
    public StubResponse withHeader(String name, String value) {
        @SuppressWarnings("unchecked")
        Map<String, Object> headers = new LinkedHashMap<>((Map<String, Object>) response().getOrDefault("headers", Map.of()));
        headers.put(name, value);
        return withResponseField("headers", headers);
    }

    /** A sequence that starts over after its last answer. */
    public StubResponse cycling() {
        if (!fields.containsKey("responses")) throw new IllegalStateException("only a sequence cycles");
        Map<String, Object> copy = new LinkedHashMap<>(fields);
        copy.put("afterLast", "cycle");
        return new StubResponse(copy);
    }

    /** The answer's members of a route. */
    Map<String, Object> routeFields() {
        return fields;
    }

    private static StubResponse response(Map<String, Object> response) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("response", new LinkedHashMap<>(response));
        return new StubResponse(fields);
    }

    private boolean isResponse() {
        return fields.size() == 1 && fields.containsKey("response");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> response() {
        if (!isResponse()) throw new IllegalStateException("only a response has a status and headers");
        return (Map<String, Object>) fields.get("response");
    }

    private StubResponse withResponseField(String name, Object value) {
        Map<String, Object> response = new LinkedHashMap<>(response());
        response.put(name, value);
        return response(response);
    }
}
