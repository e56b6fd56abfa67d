package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The image builds with Maven from what the Dockerfile copies, and Maven refuses a module list naming a folder
 * that is not there: every module of the parent pom must be copied, whole or (left out of the image) its pom.
 * Checked here because no test machine has a Docker engine to build the image.
 */
class DockerfileTest {
    @Test
    void everyModuleOfTheParentPomIsCopiedIntoTheBuild() throws IOException {
        String pom = Files.readString(Path.of("..", "pom.xml"));
        String dockerfile = Files.readString(Path.of("..", "Dockerfile"));
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
        List<String> modules = module.results().map(m -> m.group(1)).toList();

        assertThat(modules).contains("cli", "adapters/azure-tables");
        for (String name : modules) {
            assertThat(dockerfile).as("the Dockerfile copies module " + name)
                    .containsAnyOf("COPY " + name + " " + name + "\n", "COPY " + name.split("/")[0] + " "
                            + name.split("/")[0] + "\n", "COPY " + name + "/pom.xml " + name + "/pom.xml\n");
        }
        assertThat(dockerfile).as("benchmarks stay out of the image").doesNotContain("COPY bench bench");
    }
}
