package dev.stubd.kit.okhttp;

import dev.stubd.kit.StubdSession;
import java.io.IOException;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Points an OkHttp client at stubd and puts its requests in a session: each request's scheme,
 * host and port become stubd's (path and query kept), its original host goes as
 * {@code X-Stubd-Host} (so routes that differ by host keep their own answers) and the session
 * goes as {@code X-Stubd-Session}. Add it as an application interceptor:
 * {@code client.newBuilder().addInterceptor(new StubdInterceptor(session)).build()}.
 */
public final class StubdInterceptor implements Interceptor {
    private final StubdSession session;
    private final HttpUrl stubd;

    /** Requests to stubd, in {@code session}. */
    public StubdInterceptor(StubdSession session) {
        this.session = session;
        HttpUrl parsed = HttpUrl.parse(session.stubd().baseURL());
        if (parsed == null) throw new IllegalArgumentException("stubd's address is not a URL: " + session.stubd().baseURL());
        this.stubd = parsed;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request original = chain.request();
        HttpUrl url = original.url().newBuilder().scheme(stubd.scheme()).host(stubd.host()).port(stubd.port()).build();
        Request.Builder pointed = original.newBuilder().url(url).header(StubdSession.HEADER, session.id());
        if (!original.url().host().equals(stubd.host()) || original.url().port() != stubd.port()) {
            pointed.header("X-Stubd-Host", original.url().host());
        }
        return chain.proceed(pointed.build());
    }
}
