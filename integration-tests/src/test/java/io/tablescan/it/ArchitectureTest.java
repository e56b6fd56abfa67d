package io.tablescan.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The package rules the layout promises, checked on the main classes of every module on this test's class path
 * (the tool, its workers and adapters, the example plugin); a new dependency that breaks one fails the build.
 */
class ArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tablescan");

    @Test
    void theSpiDependsOnNothingElseOfTablescan() {
        noClasses().that().resideInAPackage("io.tablescan.spi..")
                .should().dependOnClassesThat().resideOutsideOfPackages("io.tablescan.spi..", "java..")
                .check(MAIN);
    }

    /** The example plugin is kept off this class path (PluginSinkIT loads its jar as a user does): read from its build. */
    @Test
    void aPluginNeedsOnlyTheSpi() {
        Path plugin = Path.of(System.getProperty("basedir", "."), "../examples/swap-keys-sink/target/classes");
        assertThat(plugin).as("the example plugin's classes, built before this module").isDirectory();
        classes().that().resideInAPackage("io.tablescan.examples..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.tablescan.examples..", "io.tablescan.spi..",
                        "java..")
                .check(new ClassFileImporter().importPath(plugin));
    }

    @Test
    void theScannerDependsOnTheSpiOnly() {
        classes().that().resideInAPackage("io.tablescan.scanner..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.tablescan.scanner..", "io.tablescan.spi..",
                        "java..")
                .check(MAIN);
    }

    @Test
    void nothingButTheCommandLineDependsOnIt() {
        noClasses().that().resideOutsideOfPackages("io.tablescan.cli..", "io.tablescan.logging..")
                .should().dependOnClassesThat().resideInAPackage("io.tablescan.cli..")
                .check(MAIN);
    }

    @Test
    void corePackagesHaveNoCycle() {
        slices().matching("io.tablescan.(*)..").should().beFreeOfCycles().check(MAIN);
    }
}
