package io.tablescan.serde;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.junit.jupiter.api.Test;

/**
 * Schema changes must stay backward compatible: today's readers must read what every released version
 * wrote. A release copies the schemas to schemas/released/VERSION/ and adds VERSION to VERSIONS.
 */
class SchemaCompatibilityTest {
    @Test
    void currentSchemasReadEveryReleasedVersion() {
        assertThat(WireRecords.releasedSchemas()).isNotEmpty();
        for (Schema released : WireRecords.releasedSchemas()) {
            Schema current = WireRecords.SCHEMAS.stream()
                    .filter(s -> s.getFullName().equals(released.getFullName())).findFirst().orElseThrow();
            var result = SchemaCompatibility.checkReaderWriterCompatibility(current, released);
            assertThat(result.getType()).as(released.getFullName() + ": " + result.getDescription())
                    .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
        }
    }
}
