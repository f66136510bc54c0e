package dev.stubd.kit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/** The app's side in these tests: plain HttpURLConnection requests in a session. */
final class Http {
    record Reply(int status, String contentType, String body) {}

    static Reply get(StubdSession session, String path) throws IOException {
        return send(session, "GET", path, null, null);
    }

    static Reply send(StubdSession session, String method, String path, String contentType, String body) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL(session.url(path)).openConnection();
        connection.setRequestMethod(method);
        connection.setReadTimeout(10_000);
        session.headers().forEach(connection::setRequestProperty);
        if (body != null) {
            connection.setDoOutput(true);
            connection.setRequestProperty("Content-Type", contentType);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(body.getBytes(StandardCharsets.UTF_8));
            }
        }
        int status = connection.getResponseCode();
        InputStream stream = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
        String text = stream == null ? "" : new String(Stubd.readAll(stream), StandardCharsets.UTF_8);
        return new Reply(status, connection.getContentType(), text);
    }
}
