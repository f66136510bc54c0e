package dev.stubd.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stubd.kit.junit.StubdExtension;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Twenty tests at once on one stubd, each stubbing GET /profile its own way in a session of its own. */
@Execution(ExecutionMode.CONCURRENT)
class ParallelSessionsTest {
    @RegisterExtension
    static StubdExtension stubd = StubdExtension.fromEnvironment().strict();

    private static final AtomicInteger running = new AtomicInteger();
    private static final AtomicInteger most = new AtomicInteger();

    @ParameterizedTest(name = "session {0} sees its own /profile")
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19})
    void eachTestHasItsOwnProfile(int index, StubdSession session) throws Exception {
        most.accumulateAndGet(running.incrementAndGet(), Math::max);
        try {
            session.stub("GET", "/profile", StubResponse.json("{\"name\": \"user " + index + "\"}"));
            Thread.sleep(50);  // overlap with the others
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
