import java.util.Collections;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okio.BufferedSource;

/**
 * OkHttp 3 (Debian's libokhttp-java) reading a stream line by line from the body's source, as an
 * Android app without OkHttp's SSE module reads Server-Sent Events. Usage:
 * [STUBD_HTTP2=1] java -cp okhttp.jar:okio.jar OkHttpLines.java URL... Prints, per URL, "ok: N events" or
 * "error: Type: message". The read times out after 2 s.
 */
public class OkHttpLines {
    public static void main(String[] args) {
        // HTTP/1.1, or with STUBD_HTTP2=1 HTTP/2 by prior knowledge (h2c on http://).
        OkHttpClient.Builder builder = new OkHttpClient.Builder().readTimeout(2, TimeUnit.SECONDS);
        if ("1".equals(System.getenv("STUBD_HTTP2"))) builder.protocols(Collections.singletonList(Protocol.H2_PRIOR_KNOWLEDGE));
        OkHttpClient client = builder.build();
        for (String url : args) {
            try (Response response = client.newCall(new Request.Builder().url(url).build()).execute()) {
                BufferedSource source = response.body().source();
                int events = 0;
                String line;
                while ((line = source.readUtf8Line()) != null) {
                    if (line.startsWith("data:")) events++;
                }
                System.out.println("ok: " + events + " events");
            } catch (Throwable error) {
                System.out.println("error: " + error.getClass().getSimpleName() + ": " + String.valueOf(error.getMessage()).replaceAll("\\s+", " "));
            }
        }
        // OkHttp 3's HTTP/2 reader thread is not a daemon: without this the JVM would outlive its requests.
        System.exit(0);
    }
}
