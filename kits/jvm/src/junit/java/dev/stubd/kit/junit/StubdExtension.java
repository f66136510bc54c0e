package dev.stubd.kit.junit;

import dev.stubd.kit.Mode;
import dev.stubd.kit.Stubd;
import dev.stubd.kit.StubdSession;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A stubd session per JUnit 5 test: a test (or its {@code @BeforeEach}) that takes a
 * {@link StubdSession} parameter gets one of its own — tests run in parallel on one stubd without
 * seeing each other's stubs — and it is ended after the test. Strict ({@link #strict()}): a test
 * that left a stub unused or sent a request no stub answered fails, with the list.
 *
 * <pre>{@code
 * @RegisterExtension
 * static StubdExtension stubd = StubdExtension.fromEnvironment().strict();
 *
 * @Test
 * void showsTheProfile(StubdSession session) { … }
 * }</pre>
 *
 * {@code @ExtendWith(StubdExtension.class)} works too: the stubd at {@code STUBD_BASE_URL}, not strict.
 */
public final class StubdExtension implements ParameterResolver, AfterEachCallback {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(StubdExtension.class);
    private final Stubd stubd;
    private final boolean strict;

    /** The stubd at {@code STUBD_BASE_URL} (or 127.0.0.1:8080), not strict: what {@code @ExtendWith} makes. */
    public StubdExtension() {
        this(new Stubd(), false);
    }

    private StubdExtension(Stubd stubd, boolean strict) {
        this.stubd = stubd;
        this.strict = strict;
    }

    /** The stubd at {@code STUBD_BASE_URL} (or 127.0.0.1:8080), token {@code STUBD_ADMIN_TOKEN}. */
    public static StubdExtension fromEnvironment() {
        return new StubdExtension();
    }

    /** This stubd. */
    public static StubdExtension of(Stubd stubd) {
        return new StubdExtension(stubd, false);
    }

    /** The same, failing each test whose session has an unused stub or an unanswered request. */
    public StubdExtension strict() {
        return new StubdExtension(stubd, true);
    }

    /** The server. */
    public Stubd stubd() {
        return stubd;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == StubdSession.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(key(context), k -> stubd.session(), StubdSession.class);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        StubdSession session = context.getStore(NAMESPACE).remove(key(context), StubdSession.class);
        if (session == null) return;  // the test took no session
        try {
            if (strict && context.getExecutionException().isEmpty()) session.verifyStrict(Mode.current());
        } finally {
            session.end();
        }
    }

    private static String key(ExtensionContext context) {
        return "session:" + context.getUniqueId();
    }
}
