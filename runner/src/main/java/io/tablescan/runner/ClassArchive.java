package io.tablescan.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The classes that {@code ./tablescan} has the JVM keep beside the jar when a run ends (see the script): an
 * ahead-of-time recording on JDK 25 and newer, a class data sharing archive before. It only helps when that run
 * loaded the pipeline's classes: a first run that failed on a typo would keep a few hundred classes, and every later
 * copy would start without the rest. So a run that ran the pipeline leaves a mark beside the file, and the script
 * uses a file only when it has that mark.
 */
final class ClassArchive {
    /** The file's path, given by the script while the JVM is to write it. */
    static final String PROPERTY = "tablescan.classArchive";

    private ClassArchive() {}

    /** Whether this JVM records the classes it loads for the next runs (see the launcher). */
    static boolean recording() {
        String archive = System.getProperty(PROPERTY);
        return archive != null && !archive.isBlank();
    }

    /** The pipeline ran: the file this JVM writes when it exits holds what a copy loads. */
    static void pipelineRan() {
        if (!recording()) {
            return;
        }
        try {
            Files.write(Path.of(System.getProperty(PROPERTY) + ".ok"), new byte[0]); // written now: newer than the jar
        } catch (IOException | RuntimeException e) {
            // no mark: the next run writes the archive again
        }
    }
}
