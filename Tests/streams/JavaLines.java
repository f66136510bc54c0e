import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * Java 17's HttpClient reading a stream line by line (BodyHandlers.ofLines), as an Android or
 * backend Java client reads Server-Sent Events. Usage: [STUBD_HTTP2=1] java JavaLines.java URL...
 * Prints, per URL, "ok: N events" or "error: Type: message". The read times out after 2 s.
 */
public class JavaLines {
    public static void main(String[] args) {
        // HTTP/1.1, or with STUBD_HTTP2=1 HTTP/2 (its default: h2c by Upgrade on http://).
        HttpClient.Version version = "1".equals(System.getenv("STUBD_HTTP2")) ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1;
        HttpClient client = HttpClient.newBuilder().version(version).connectTimeout(Duration.ofSeconds(2)).build();
        for (String url : args) {
            try {
                HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build();
                HttpResponse<Stream<String>> response = client.send(request, HttpResponse.BodyHandlers.ofLines());
                long events;
                try (Stream<String> lines = response.body()) {
                    events = lines.filter(line -> line.startsWith("data:")).count();
                }
                System.out.println("ok: " + events + " events");
            } catch (Throwable error) {
                Throwable cause = error.getCause() != null && error instanceof java.io.UncheckedIOException ? error.getCause() : error;
                System.out.println("error: " + cause.getClass().getSimpleName() + ": " + String.valueOf(cause.getMessage()).replaceAll("\\s+", " "));
            }
        }
    }
}
