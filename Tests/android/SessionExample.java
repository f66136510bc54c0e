// docs/ANDROID.md's OkHttp lines, run by make test against a real stubd with Debian's OkHttp 3
// (Tests/android/session_test.py): a session header on every request through an interceptor, a
// stub for that session only, and the count. Usage: java -cp okhttp.jar:okio.jar SessionExample.java BASE_URL
import java.io.IOException;
import java.util.UUID;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

public class SessionExample {
    public static void main(String[] args) throws IOException {
        String baseUrl = args[0];   // the app's: http://10.0.2.2:8080 on the emulator
        String session = "android-" + UUID.randomUUID();

        // --- the page's block ---
        OkHttpClient client = new OkHttpClient.Builder()
                .addInterceptor(chain -> chain.proceed(chain.request().newBuilder()
                        .header("X-Stubd-Session", session)
                        .build()))
                .build();
        MediaType json = MediaType.parse("application/json");
        String stub = "{\"request\": {\"method\": \"GET\", \"path\": \"/v1/me\"}, \"response\": {\"json\": {\"id\": 7}}}";
        client.newCall(new Request.Builder().url(baseUrl + "/__stubd/routes")
                .post(RequestBody.create(json, stub)).build()).execute().close();
        try (Response me = client.newCall(new Request.Builder().url(baseUrl + "/v1/me").build()).execute()) {
            System.out.println(me.code() + " " + me.body().string());                // 200 {"id":7}
        }
        try (Response count = client.newCall(new Request.Builder()
                .url(baseUrl + "/__stubd/requests/count?method=GET&path=/v1/me").build()).execute()) {
            System.out.println(count.body().string());                               // {"count": 1}
        }
        client.newCall(new Request.Builder().url(baseUrl + "/__stubd/reset")
                .post(RequestBody.create(json, "")).build()).execute().close();      // end the session
        // --- end of the page's block ---

        // Another session does not see the stub.
        try (Response other = new OkHttpClient().newCall(new Request.Builder().url(baseUrl + "/v1/me")
                .header("X-Stubd-Session", "someone-else").build()).execute()) {
            System.out.println("other " + other.code());
        }
    }
}
