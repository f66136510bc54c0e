import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * Java 17's HttpClient reading a stream line by line (BodyHandlers.ofLines), as an Android or
 * backend Java client reads Server-Sent Events. Usage: java JavaLines.java URL...
 * Prints, per URL, "ok: N events" or "error: Type: message". The read times out after 2 s.
 */
public class JavaLines {
    public static void main(String[] args) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
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
