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

    /** The image's user has no home folder: local jobs keep their state in a folder the image gives that user. */
    @Test
    void theImagesUserCanKeepALocalJobsState() throws IOException {
        var image = ContainerEntrypointIT.Image.read(Path.of("..", "Dockerfile"));
        String stateDir = image.env().get("TABLESCAN_STATE_DIR");
        assertThat(stateDir).as("TABLESCAN_STATE_DIR in the image").startsWith("/");
        assertThat(image.user()).as("USER").matches("\\d+");
        assertThat(image.ownedFolders()).as("folders chown'd to the image's user").anyMatch(stateDir::startsWith);
        assertThat(Files.readString(Path.of("..", "Dockerfile"))).containsPattern("(?m)^VOLUME .*"
                + Pattern.quote(image.ownedFolders().stream().filter(stateDir::startsWith).findFirst().orElseThrow()));
    }
}
