package io.tablescan.sink;

import io.tablescan.spi.SinkProvider;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.jar.JarFile;

/**
 * Where a process finds its sink providers: its class path, plus every {@code *.jar} of the folder that
 * {@value #VARIABLE} names, on a class loader of their own whose parent is the application's (so a plugin
 * sees the SPI and core as the worker has them, and needs neither in its jar).
 */
public final class SinkPlugins {
    public static final String VARIABLE = "TABLESCAN_PLUGINS";
    /** The class path's providers only. */
    public static final SinkPlugins NONE = new SinkPlugins(List.of(), SinkPlugins.class.getClassLoader());

    private final List<Path> jars;
    private final ClassLoader loader;

    private SinkPlugins(List<Path> jars, ClassLoader loader) {
        this.jars = jars;
        this.loader = loader;
    }

    /**
     * The plugins of the folder {@value #VARIABLE} names, or {@link #NONE} when it is unset or blank.
     *
     * @throws IllegalArgumentException (one line) for a folder that does not exist or a jar that cannot be read
     */
    public static SinkPlugins fromEnvironment(Map<String, String> env) {
        String folder = env.get(VARIABLE);
        return folder == null || folder.isBlank() ? NONE : in(Path.of(folder.trim()));
    }

    /** The plugins of {@code folder}: every {@code *.jar} in it, none below (a folder of jars, as a user fills it). */
    public static SinkPlugins in(Path folder) {
        if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException(VARIABLE + " names no folder: " + folder);
        }
        List<Path> jars = new ArrayList<>();
        try (DirectoryStream<Path> found = Files.newDirectoryStream(folder, "*.jar")) {
            found.forEach(jars::add);
        } catch (IOException e) {
            throw new IllegalArgumentException(VARIABLE + ": cannot list the folder " + folder + " (" + e.getMessage() + ")");
        }
        jars.sort(null); // the same order on every machine
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars) {
            try (JarFile readable = new JarFile(jar.toFile())) { // now, not at the first batch of a scan
                urls.add(jar.toUri().toURL());
            } catch (IOException e) {
                throw new IllegalArgumentException(VARIABLE + ": cannot read the plugin jar " + jar + " ("
                        + e.getClass().getSimpleName() + ")");
            }
        }
        ClassLoader parent = SinkPlugins.class.getClassLoader();
        return new SinkPlugins(List.copyOf(jars), jars.isEmpty() ? parent
                : new URLClassLoader("tablescan-plugins", urls.toArray(URL[]::new), parent));
    }

    /** The plugin jars, sorted by name. */
    public List<Path> jars() {
        return jars;
    }

    /**
     * Every provider: the class path's and the plugins'. A provider class that cannot be loaded or made (a
     * jar built against another SPI, say) is one line naming it.
     *
     * @throws IllegalArgumentException for a provider that cannot be loaded
     */
    public List<SinkProvider> providers() {
        List<SinkProvider> providers = new ArrayList<>();
        try {
            ServiceLoader.load(SinkProvider.class, loader).forEach(providers::add);
        } catch (ServiceConfigurationError e) {
            throw new IllegalArgumentException("cannot load a sink provider: " + e.getMessage());
        }
        return providers;
    }
}
