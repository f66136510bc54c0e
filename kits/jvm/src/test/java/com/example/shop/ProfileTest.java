package com.example.shop;

// docs/TESTING.md's Java example as a user's own test, in a package of its own: the page shows this
// file from its imports on, so the block compiles as pasted (Tests/docs/snippets_test.py checks each
// of its lines is here; Tests/kits/kits_test.py also compiles the page's block alone, without Gradle,
// as docs/KITS.md says). Run by kits/jvm/build.sh test against STUBD_BASE_URL.
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stubd.kit.StubResponse;
import dev.stubd.kit.StubdSession;
import dev.stubd.kit.junit.StubdExtension;
import dev.stubd.kit.okhttp.StubdInterceptor;
import java.io.IOException;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ProfileTest {
    @RegisterExtension
    static StubdExtension stubd = StubdExtension.fromEnvironment().strict();   // STUBD_BASE_URL, or http://127.0.0.1:8080

    @Test
    void showsTheUsersName(StubdSession session) throws IOException {
        session.stub("GET", "/users/octocat", StubResponse.json("{\"login\": \"octocat\", \"name\": \"The Octocat\"}"));

        OkHttpClient client = new OkHttpClient.Builder().addInterceptor(new StubdInterceptor(session)).build();
        Request request = new Request.Builder().url("https://api.github.com/users/octocat").build();   // the app's request
        try (Response response = client.newCall(request).execute()) {
            assertEquals("{\"login\":\"octocat\",\"name\":\"The Octocat\"}", response.body().string());
        }
        session.expect("GET", "/users/octocat", 1);   // fails listing the session's near misses
    }
}
