package dev.stubd.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.stubd.kit.junit.StubdExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** A strict session fails the test that left a stub unused, naming it: run through JUnit's own launcher. */
class StrictExtensionTest {
    @Test
    void aTestWithAnUnusedStubFails() {
        System.setProperty("stubd.kit.strictExample", "run");
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(StrictExample.class)).build(), listener);
        TestExecutionSummary summary = listener.getSummary();
        assertEquals(2, summary.getTestsStartedCount());
        assertEquals(1, summary.getTestsFailedCount(), "the strict test with an unused stub fails; the one using its stubs passes");
        Throwable failure = summary.getFailures().get(0).getException();
        assertTrue(failure instanceof StubdExpectationError, failure.toString());
        assertTrue(failure.getMessage().contains("place order: POST /orders → 201, never requested"), failure.getMessage());
    }

    /** Run only by the test above (the property), never on its own. */
    @EnabledIfSystemProperty(named = "stubd.kit.strictExample", matches = "run")
    static class StrictExample {
        @RegisterExtension
        static StubdExtension stubd = StubdExtension.fromEnvironment().strict();

        @Test
        void leavesAStubUnused(StubdSession session) throws Exception {
            session.stub("GET", "/profile", StubResponse.json("{}"));
            session.addRoutes("{\"name\": \"place order\", \"request\": {\"method\": \"POST\", \"path\": \"/orders\"}, \"response\": {\"status\": 201}}");
            Http.get(session, "/profile");
        }

        @Test
        void usesEveryStub(StubdSession session) throws Exception {
            session.stub("GET", "/profile", StubResponse.json("{}"));
            Http.get(session, "/profile");
        }
    }
}
