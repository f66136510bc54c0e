import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Java 17's java.net.http.HttpClient (HTTP/1.1, or HTTP/2 when STUBD_HTTP2=1; one client, so connections are reused) running
 * conformance steps. Usage: java JavaHttpClient.java BASE_URL "METHOD PATH"... (METHOD JSON posts
 * {"name":"milk","qty":2} as application/json; STUBD_USER_AGENT, when set, replaces its User-Agent). Prints ok TAB status TAB body, or error TAB message.
 */
public class JavaHttpClient {
    public static void main(String[] args) {
        HttpClient client = HttpClient.newBuilder().version("1".equals(System.getenv("STUBD_HTTP2")) ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1).build();
        for (int i = 1; i < args.length; i++) {
            String[] step = args[i].split(" ", 2);
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(args[0] + step[1])).timeout(Duration.ofSeconds(2));
            String agent = System.getenv("STUBD_USER_AGENT");
            if (agent != null && !agent.isEmpty()) request.header("User-Agent", agent);
            if (step[0].equals("JSON")) {
                request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"milk\",\"qty\":2}"));
            } else {
                request.method(step[0], HttpRequest.BodyPublishers.noBody());
            }
            try {
                HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
                String body = response.body();
                System.out.println("ok\t" + response.statusCode() + "\t" + body.substring(0, Math.min(40, body.length())).replaceAll("\\s+", " ").trim());
            } catch (Exception error) {
                System.out.println("error\t" + error.getClass().getSimpleName() + ": " + String.valueOf(error.getMessage()).replaceAll("\\s+", " "));
            }
        }
    }
}
