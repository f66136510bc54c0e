import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okio.BufferedSource;

/**
 * OkHttp 3 (Debian's libokhttp-java) reading a stream line by line from the body's source, as an
 * Android app without OkHttp's SSE module reads Server-Sent Events. Usage:
 * java -cp okhttp.jar:okio.jar OkHttpLines.java URL... Prints, per URL, "ok: N events" or
 * "error: Type: message". The read times out after 2 s.
 */
public class OkHttpLines {
    public static void main(String[] args) {
        OkHttpClient client = new OkHttpClient.Builder().readTimeout(2, TimeUnit.SECONDS).build();
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
    }
}
