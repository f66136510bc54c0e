package dev.stubd.kit;

import java.util.Locale;

/** How a test that records once is answered: from its recording, recorded now, or by the real API. */
public enum Mode {
    /** Serve the recorded fixtures; what they do not answer is a miss (the default, and what CI runs). */
    PLAYBACK,
    /** Forward this test's misses to the real API and write its answers into the folder. */
    RECORD,
    /** Forward to the real API; nothing is kept. */
    LIVE;

    /** {@code STUBD_MODE} (the environment, or the system property {@code stubd.mode}); playback when unset. */
    public static Mode current() {
        String value = System.getProperty("stubd.mode", System.getenv("STUBD_MODE"));
        if (value == null) return PLAYBACK;
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            return PLAYBACK;
        }
    }
}
