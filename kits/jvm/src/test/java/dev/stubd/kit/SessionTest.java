package dev.stubd.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stubd.kit.junit.StubdExtension;
import dev.stubd.kit.okhttp.StubdInterceptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The kit's calls against a real stubd (STUBD_BASE_URL; STUBD_TEST_UPSTREAM: a second stubd to record from). */
class SessionTest {
    @RegisterExtension
    static StubdExtension stubd = StubdExtension.fromEnvironment();

    @Test
    void aFailedExpectationShowsTheNearMiss(StubdSession session) throws IOException {
        session.stub("GET", "/users/octocat", StubResponse.json("{\"login\": \"octocat\"}"));
        assertEquals(404, Http.get(session, "/users/octocats").status());
        StubdExpectationError error = assertThrows(StubdExpectationError.class, () -> session.expect("GET", "/users/octocat", 1));
        assertTrue(error.getMessage().contains("expected 1 × GET /users/octocat, got 0"), error.getMessage());
        assertTrue(error.getMessage().matches("(?s).*GET /users/octocats → .*octocat.*"), error.getMessage());
    }

    @Test
    void aSequenceAnswersInTurn(StubdSession session) throws IOException {
        session.stub("GET", "/flaky", StubResponse.sequence(StubResponse.status(500), StubResponse.json("{\"ok\": true}")));
        assertEquals(500, Http.get(session, "/flaky").status());
        assertEquals(200, Http.get(session, "/flaky").status());
        assertEquals(200, Http.get(session, "/flaky").status());
        assertEquals(3, session.count("GET", "/flaky"));
    }

    @Test
    void aFaultReachesTheClientAsAnIOException(StubdSession session) {
        session.stub("GET", "/down", StubResponse.fault("reset"));
        assertThrows(IOException.class, () -> Http.get(session, "/down"));
    }

    @Test
    void aStreamArrivesAsServerSentEvents(StubdSession session) throws IOException {
        session.stub("GET", "/scores", StubResponse.stream("{\"events\": [{\"event\": \"score\", \"data\": {\"home\": 1}}, {\"data\": \"full time\"}]}"));
        Http.Reply reply = Http.get(session, "/scores");
        assertTrue(reply.contentType().startsWith("text/event-stream"), reply.contentType());
        assertEquals("event: score\ndata: {\"home\":1}\n\ndata: full time\n\n", reply.body());
    }

    @Test
    void headersAndMatchersGoIntoTheRoute(StubdSession session) throws IOException {
        session.stub("GET", "/items", StubResponse.text("page two").withStatus(206).withHeader("X-Page", "2"), "{\"query\": {\"page\": \"2\"}}");
        assertEquals(206, Http.get(session, "/items?page=2").status());
        assertEquals(404, Http.get(session, "/items?page=3").status());
    }

    @Test
    void aFixtureFileWithARecordedBodyBecomesTheSessions(StubdSession session, @TempDir Path folder) throws IOException {
        Files.createDirectories(folder.resolve("__files"));
        Files.writeString(folder.resolve("__files/motd.txt"), "hello from a file");
        Files.writeString(folder.resolve("motd.json"),
                "{\"routes\": [{\"request\": {\"method\": \"GET\", \"path\": \"/motd\"}, \"response\": {\"bodyFile\": \"motd.txt\"}}]}");
        assertEquals(1, session.stubFile(folder.resolve("motd.json")).size());
        Http.Reply reply = Http.get(session, "/motd");
        assertEquals("hello from a file", reply.body());
        assertEquals("text/plain; charset=utf-8", reply.contentType());
    }

    @Test
    void aSnapshotIsCanonicalText(StubdSession session) throws IOException {
        session.stub("POST", "/orders", StubResponse.status(201), "{\"anyOtherQuery\": true}");
        assertEquals(201, Http.send(session, "POST", "/orders?b=2&a=1", "application/json", "{\"z\": 1, \"a\": 2}").status());
        String snapshot = session.snapshot();
        assertTrue(snapshot.startsWith("POST /orders\n  query: a=1&b=2\n"), snapshot);
        assertTrue(snapshot.endsWith("  Content-Type: application/json\n  body: {\"a\":2,\"z\":1}\n"), snapshot);
    }

    @Test
    void aRefusedCallSaysWhatToChange(StubdSession session) {
        StubdAdminException error = assertThrows(StubdAdminException.class, () -> session.addRoutes("{\"request\": {\"method\": \"GET\"}}"));
        assertEquals(400, error.status());
        assertTrue(error.getMessage().startsWith("POST /__stubd/routes: 400 "), error.getMessage());
    }

    @Test
    void okHttpThroughTheInterceptorReachesTheSession(StubdSession session) throws IOException {
        session.stub("GET", "/repos/stubd", StubResponse.json("{\"stars\": 42}"));
        OkHttpClient client = new OkHttpClient.Builder().addInterceptor(new StubdInterceptor(session)).build();
        Request request = new Request.Builder().url("https://api.example.com/repos/stubd").build();
        try (Response response = client.newCall(request).execute()) {
            assertEquals(200, response.code());
            assertEquals("{\"stars\":42}", response.body().string());
        }
        List<java.util.Map<String, Object>> entries = session.requests();
        assertEquals(1, entries.size());
        assertTrue(entries.get(0).get("headers").toString().contains("X-Stubd-Host, api.example.com"), entries.get(0).get("headers").toString());
    }

    @Test
    void recordOnceThenReplayWithoutTheRealAPI(@TempDir Path folder) throws IOException {
        String upstream = System.getenv("STUBD_TEST_UPSTREAM");
        assertTrue(upstream != null, "STUBD_TEST_UPSTREAM: the harness (Tests/kits/kits_test.py) starts a second stubd to record from");
        Path recording = folder.resolve("weather");
        StubdSession recorder = stubd.stubd().session();
        recorder.useRecording(recording, upstream, Mode.RECORD);
        assertEquals("{\"sky\":\"clear\"}", Http.get(recorder, "/weather").body());
        recorder.finishRecording(Mode.RECORD);
        recorder.end();
        StubdSession replay = stubd.stubd().session();
        replay.useRecording(recording, null, Mode.PLAYBACK);
        assertEquals("{\"sky\":\"clear\"}", Http.get(replay, "/weather").body());
        replay.verifyStrict(Mode.PLAYBACK);
        replay.end();
        StubdExpectationError missing = assertThrows(StubdExpectationError.class,
                () -> stubd.stubd().session().useRecording(folder.resolve("none"), null, Mode.PLAYBACK));
        assertTrue(missing.getMessage().contains("STUBD_MODE=record"), missing.getMessage());
    }
}
