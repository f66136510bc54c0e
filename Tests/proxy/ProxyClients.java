// Java 17's HttpClient and OkHttp 3 through stubd's proxy (Tests/proxy/proxy_test.py runs it):
// the proxy on loopback with a password, HTTPS trusted through stubd's CA only, the session named
// by the proxy credentials' user, which both send when the proxy asks (407).
//   java -Djdk.http.auth.tunneling.disabledSchemes= -cp okhttp.jar:okio.jar ProxyClients.java PORT CA SESSION PASSWORD
import java.io.FileInputStream;
import java.net.Authenticator;
import java.net.InetSocketAddress;
import java.net.PasswordAuthentication;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.Credentials;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

public class ProxyClients {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String session = args[2], password = args[3];
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        try (FileInputStream ca = new FileInputStream(args[1])) {
            store.setCertificateEntry("stubd", CertificateFactory.getInstance("X.509").generateCertificate(ca));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trust.getTrustManagers(), null);

        HttpClient java = HttpClient.newBuilder()
            .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", port)))
            .authenticator(new Authenticator() {
                @Override protected PasswordAuthentication getPasswordAuthentication() {
                    return new PasswordAuthentication(session, password.toCharArray());
                }
            })
            .sslContext(tls)
            .build();
        for (String url : new String[] {"https://api.example.com/v1/me", "http://api.example.com/v1/me"}) {
            HttpResponse<String> answer = java.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
            System.out.println("java " + url.substring(0, url.indexOf(':')) + " " + answer.statusCode() + " " + answer.body());
        }

        OkHttpClient okhttp = new OkHttpClient.Builder()
            .proxy(new Proxy(Proxy.Type.HTTP, new InetSocketAddress("127.0.0.1", port)))
            .proxyAuthenticator((route, response) -> response.request().newBuilder()
                .header("Proxy-Authorization", Credentials.basic(session, password)).build())
            .sslSocketFactory(tls.getSocketFactory(), (X509TrustManager) trust.getTrustManagers()[0])
            .build();
        for (String url : new String[] {"https://api.example.com/v1/me", "http://api.example.com/v1/me"}) {
            try (Response answer = okhttp.newCall(new Request.Builder().url(url).build()).execute()) {
                System.out.println("okhttp " + url.substring(0, url.indexOf(':')) + " " + answer.code() + " " + answer.body().string());
            }
        }
    }
}
