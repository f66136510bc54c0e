import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import java.util.List;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;

/**
 * OkHttp 3's WebSocket (Debian's libokhttp-java), as an Android app uses it. Usage:
 * java -cp okhttp.jar:okio.jar OkHttpWebSocket.java BASE_WS_URL. Prints one line for the chat
 * conversation (subprotocol, messages, the close) and one per fault: what the listener heard.
 */
public class OkHttpWebSocket {
    static String run(OkHttpClient client, String url, boolean chat) throws InterruptedException {
        List<String> seen = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        Request.Builder request = new Request.Builder().url(url);
        if (chat) request.header("Sec-WebSocket-Protocol", "chat.v1");
        client.newWebSocket(request.build(), new WebSocketListener() {
            @Override public void onOpen(WebSocket ws, Response response) {
                if (chat) seen.add(String.valueOf(response.header("Sec-WebSocket-Protocol")));
            }
            @Override public void onMessage(WebSocket ws, String text) {
                seen.add(text);
                if (chat && seen.size() == 2) ws.send("{\"type\":\"ping\",\"id\":11}");
                if (chat && seen.size() == 3) ws.send("bye");
            }
            @Override public void onClosing(WebSocket ws, int code, String reason) {
                seen.add("onClosing " + code + " " + reason);
                ws.close(1000, null);
            }
            @Override public void onClosed(WebSocket ws, int code, String reason) {
                done.countDown();
            }
            @Override public void onFailure(WebSocket ws, Throwable error, Response response) {
                seen.add("onFailure " + error.getClass().getSimpleName() + ": " + String.valueOf(error.getMessage()).replaceAll("\\s+", " "));
                done.countDown();
            }
        });
        if (!done.await(5, TimeUnit.SECONDS)) seen.add("timeout");
        return String.join(" · ", seen);
    }

    public static void main(String[] args) throws Exception {
        OkHttpClient client = new OkHttpClient.Builder().readTimeout(3, TimeUnit.SECONDS).build();
        String base = args[0];
        System.out.println(run(client, base + "/chat?room=android", true));
        for (String fault : new String[] {"drop", "abrupt", "invalid-frame", "close"}) {
            System.out.println(run(client, base + "/fault/" + fault, false));
        }
        // Pings every 300 ms: what OkHttp does when the pongs stop.
        OkHttpClient pinging = client.newBuilder().pingInterval(300, TimeUnit.MILLISECONDS).build();
        System.out.println(run(pinging, base + "/fault/stop-pongs", false));
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
    }
}
