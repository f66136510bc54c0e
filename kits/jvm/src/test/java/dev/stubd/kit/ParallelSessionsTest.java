package dev.stubd.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stubd.kit.junit.StubdExtension;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Twenty tests at once on one stubd, each stubbing GET /profile its own way in a session of its own —
 * in parallel by docs/KITS.md's recipe alone (src/test/resources/junit-platform.properties), no
 * annotation: with `parallel.enabled` only, JUnit ran them one at a time and `together` timed out.
 */
class ParallelSessionsTest {
    @RegisterExtension
    static StubdExtension stubd = StubdExtension.fromEnvironment().strict();

    private static final AtomicInteger running = new AtomicInteger();
    private static final AtomicInteger most = new AtomicInteger();
    /** Opened once two tests are inside at the same time: each waits for it (5 s at most) before its request. */
    private static final CountDownLatch together = new CountDownLatch(2);

    @ParameterizedTest(name = "session {0} sees its own /profile")
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19})
    void eachTestHasItsOwnProfile(int index, StubdSession session) throws Exception {
        most.accumulateAndGet(running.incrementAndGet(), Math::max);
        try {
            session.stub("GET", "/profile", StubResponse.json("{\"name\": \"user " + index + "\"}"));
            together.countDown();
            together.await(5, TimeUnit.SECONDS);  // with another test's session open: they overlap
            assertEquals("{\"name\":\"user " + index + "\"}", Http.get(session, "/profile").body());
            session.expect("GET", "/profile", 1);
        } finally {
            running.decrementAndGet();
        }
    }

    @AfterAll
    static void theyOverlapped() {
        assertTrue(most.get() > 1, "at most " + most.get() + " test ran at once: JUnit's parallel execution is off");
    }
}
