package dev.stubd.kit;

/**
 * A count that was not what the test expected, or a strict session with unused stubs or misses:
 * an {@link AssertionError}, so JUnit, Kotlin test and Espresso report it as a failed assertion
 * with the session's near misses in the message.
 */
public final class StubdExpectationError extends AssertionError {
    private static final long serialVersionUID = 1L;

    StubdExpectationError(String message) {
        super(message);
    }
}
