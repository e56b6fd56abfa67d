package io.tablescan.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobStatesTest {
    @Test
    void aBrokersPreallocatedIndexesCountAtTheirEntriesNotTheirApparentSize(@TempDir Path dir) throws Exception {
        Path partition = Files.createDirectories(dir.resolve("kafka").resolve("tablescan.entity-batches-0"));
        Files.write(partition.resolve("00000000000000000000.log"), new byte[40_960]); // 10 index intervals
        for (String index : new String[] {"00000000000000000000.index", "00000000000000000000.timeindex"}) {
            try (RandomAccessFile file = new RandomAccessFile(partition.resolve(index).toFile(), "rw")) {
                file.setLength(10 << 20); // preallocated, as the broker does: sparse on disk
            }
        }
        Files.write(dir.resolve("job.properties"), new byte[100]);

        assertThat(JobStates.size(dir)).isEqualTo(40_960 + 100 + 2 * 11 * 12);
    }
}
