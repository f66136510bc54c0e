package dev.stubd.kit;

import java.util.List;

/** An admin call stubd refused (or could not be made): the status and stubd's message, which says what to change. */
public final class StubdAdminException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final List<String> problems;

    StubdAdminException(String method, String path, int status, String message, List<String> problems) {
        super(method + " /__stubd/" + path + ": " + status + " " + message
                + (problems.isEmpty() ? "" : "\n  " + String.join("\n  ", problems)));
        this.status = status;
        this.problems = List.copyOf(problems);
    }

    /** The HTTP status (0: stubd could not be reached). */
    public int status() {
        return status;
    }

    /** Per item, what to change. */
    public List<String> problems() {
        return problems;
    }
}
