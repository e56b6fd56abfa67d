package io.tablescan.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.spi.RowSink;
import io.tablescan.spi.SinkContext;
import io.tablescan.spi.SinkProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Providers from a plugins folder, besides the class path's; a folder or jar that cannot work is one line. */
class SinkPluginsTest {
    @TempDir
    Path folder;

    /** A provider only a plugin jar names (its class is on the test class path, its service line is not). */
    public static class EchoProvider implements SinkProvider {
        @Override
        public String type() {
            return "echo";
        }

        @Override
        public RowSink create(SinkContext context) {
            return rows -> 0;
        }
    }

    static void jar(Path file, String... providers) throws IOException {
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out)) {
            jar.putNextEntry(new JarEntry("META-INF/services/" + SinkProvider.class.getName()));
            jar.write(String.join("\n", providers).getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
    }

    @Test
    void unsetOrBlankMeansTheClassPathAlone() {
        assertThat(SinkPlugins.fromEnvironment(Map.of())).isSameAs(SinkPlugins.NONE);
        assertThat(SinkPlugins.fromEnvironment(Map.of(SinkPlugins.VARIABLE, " "))).isSameAs(SinkPlugins.NONE);
        assertThat(SinkRegistry.load(SinkPlugins.NONE, ref -> null, SinkRegistryTest.NO_WAIT).types())
                .doesNotContain("echo");
    }

    @Test
    void everyJarOfTheFolderAddsItsProviders() throws IOException {
        jar(folder.resolve("echo.jar"), EchoProvider.class.getName());
        Files.writeString(folder.resolve("README.txt"), "not a jar: ignored");

        SinkPlugins plugins = SinkPlugins.fromEnvironment(Map.of(SinkPlugins.VARIABLE, folder.toString()));

        assertThat(plugins.jars()).containsExactly(folder.resolve("echo.jar"));
        assertThat(SinkRegistry.load(plugins, ref -> null, SinkRegistryTest.NO_WAIT).types()).contains("echo");
    }

    @Test
    void aFolderThatIsNotThereIsOneLine() {
        Path missing = folder.resolve("nosuch");
        assertThatThrownBy(() -> SinkPlugins.in(missing)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("TABLESCAN_PLUGINS names no folder: " + missing);
        assertThatThrownBy(() -> SinkPlugins.fromEnvironment(Map.of(SinkPlugins.VARIABLE, missing.toString())))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aJarThatCannotBeReadIsOneLine() throws IOException {
        Files.writeString(folder.resolve("broken.jar"), "not a zip");
        assertThatThrownBy(() -> SinkPlugins.in(folder)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("TABLESCAN_PLUGINS: cannot read the plugin jar " + folder.resolve("broken.jar"))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void aProviderClassThatCannotBeLoadedIsOneLine() throws IOException {
        jar(folder.resolve("stale.jar"), "io.tablescan.nosuch.Provider");
        SinkPlugins plugins = SinkPlugins.in(folder);

        assertThatThrownBy(plugins::providers).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("io.tablescan.nosuch.Provider");
    }

    @Test
    void twoProvidersOfOneTypeAreRefused() throws IOException {
        jar(folder.resolve("a.jar"), EchoProvider.class.getName());
        jar(folder.resolve("b.jar"), TwinProvider.class.getName());

        assertThatThrownBy(() -> SinkRegistry.load(SinkPlugins.in(folder), ref -> null, SinkRegistryTest.NO_WAIT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two sink providers of type 'echo'");
    }

    /** Another provider (another class) of {@code echo}. */
    public static final class TwinProvider extends EchoProvider {}

    @Test
    void jarsAreListedInNameOrder() throws IOException {
        jar(folder.resolve("b.jar"));
        jar(folder.resolve("a.jar"));
        assertThat(SinkPlugins.in(folder).jars()).isEqualTo(List.of(folder.resolve("a.jar"), folder.resolve("b.jar")));
    }
}
