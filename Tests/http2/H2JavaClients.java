// Java 17's HttpClient or OkHttp 3 (Debian's libokhttp-java) over HTTP/2 on stubd's HTTPS port,
// trusting stubd's CA only, or (HttpClient) on its plain port, where it asks for h2c by Upgrade
// (Tests/http2/h2_test.py runs it, once per client and port):
//   java -cp okhttp.jar:okio.jar H2JavaClients.java java|okhttp HTTPS_BASE CA PATH...
// Asks each PATH in turn on one client (so on one connection while it lasts) and prints a line
// per request: the protocol, the status and the body, or "error" and the exception's class.
import java.io.FileInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;

public class H2JavaClients {
    public static void main(String[] args) throws Exception {
        String client = args[0], base = args[1];
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        try (FileInputStream ca = new FileInputStream(args[2])) {
            store.setCertificateEntry("stubd", CertificateFactory.getInstance("X.509").generateCertificate(ca));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trust.getTrustManagers(), null);
        if (client.equals("java")) {
            HttpClient java = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(tls)
                .connectTimeout(Duration.ofSeconds(5)).build();
            for (int i = 3; i < args.length; i++) {
                HttpRequest request = HttpRequest.newBuilder(URI.create(base + args[i])).timeout(Duration.ofSeconds(5)).build();
                try {
                    HttpResponse<String> answer = java.send(request, HttpResponse.BodyHandlers.ofString());
                    String protocol = answer.version() == HttpClient.Version.HTTP_2 ? "h2" : "http/1.1";
                    System.out.println(protocol + " " + answer.statusCode() + " " + answer.body());
                } catch (java.io.IOException error) {
                    System.out.println("error " + error.getClass().getSimpleName());
                }
            }
        } else {
            OkHttpClient okhttp = new OkHttpClient.Builder()
                .sslSocketFactory(tls.getSocketFactory(), (X509TrustManager) trust.getTrustManagers()[0])
                .readTimeout(5, TimeUnit.SECONDS).build();
            for (int i = 3; i < args.length; i++) {
                try (Response answer = okhttp.newCall(new Request.Builder().url(base + args[i]).build()).execute()) {
                    String protocol = answer.protocol() == Protocol.HTTP_2 ? "h2" : answer.protocol().toString();
                    System.out.println(protocol + " " + answer.code() + " " + answer.body().string());
                } catch (java.io.IOException error) {
                    System.out.println("error " + error.getClass().getSimpleName());
                }
            }
            // OkHttp 3's HTTP/2 reader thread is not a daemon and its pool keeps the connection
            // for five minutes: without this the program would outlive its requests by that.
            okhttp.connectionPool().evictAll();
        }
        System.exit(0);
    }
}
