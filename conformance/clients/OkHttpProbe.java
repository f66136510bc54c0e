import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * OkHttp 3 (Debian's libokhttp-java; one client, so its connection pool is reused) running
 * conformance steps. Usage: java -cp okhttp.jar:okio.jar OkHttpProbe.java BASE_URL "METHOD PATH"...
 * (METHOD JSON posts {"name":"milk","qty":2} the way Android code does: RequestBody.create with
 * MediaType "application/json", to which OkHttp adds "; charset=utf-8"; STUBD_USER_AGENT, when set,
 * replaces its User-Agent).
 * Prints ok TAB status TAB body, or error TAB message.
 */
public class OkHttpProbe {
    public static void main(String[] args) {
        OkHttpClient client = new OkHttpClient.Builder().readTimeout(2, TimeUnit.SECONDS).callTimeout(3, TimeUnit.SECONDS).build();
        for (int i = 1; i < args.length; i++) {
            String[] step = args[i].split(" ", 2);
            Request.Builder request = new Request.Builder().url(args[0] + step[1]);
            String agent = System.getenv("STUBD_USER_AGENT");
            if (agent != null && !agent.isEmpty()) request.header("User-Agent", agent);
            if (step[0].equals("JSON")) {
                request.post(RequestBody.create(MediaType.parse("application/json"), "{\"name\":\"milk\",\"qty\":2}"));
            } else {
                request.method(step[0], null);
            }
            try (Response response = client.newCall(request.build()).execute()) {
                String body = response.body() == null ? "" : response.body().string();
                System.out.println("ok\t" + response.code() + "\t" + body.substring(0, Math.min(40, body.length())).replaceAll("\\s+", " ").trim());
            } catch (Exception error) {
                System.out.println("error\t" + error.getClass().getSimpleName() + ": " + String.valueOf(error.getMessage()).replaceAll("\\s+", " "));
            }
        }
        // Over HTTP/2 OkHttp 3's connection reader is not a daemon thread and its pool keeps the
        // connection for five minutes: without this the program would outlive its steps by that.
        client.connectionPool().evictAll();
        System.exit(0);
    }
}
