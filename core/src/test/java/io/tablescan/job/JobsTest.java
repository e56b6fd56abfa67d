package io.tablescan.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.schema.JobRef;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import java.time.Instant;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Which job a spec runs, for specs of today and of the versions before jobs had names; the jobs' own rules. */
class JobsTest {
    private static ScanSpec spec(UnaryOperator<ScanSpec.Builder> change) {
        return change.apply(ScanSpec.newBuilder().setScanId("s").setSource(new TableRef("a", "src"))
                .setDestination(new TableRef("a", "dst")).setPageSize(1000).setPageBudget(5).setCreatedAtMillis(1))
                .build();
    }

    @Test
    void aSpecWithoutAJobIsTheJobItsFlagsSay() {
        assertThat(Jobs.of(spec(b -> b)).name()).isEqualTo("copy");
        assertThat(Jobs.of(spec(b -> b.setCount(true).setDestination(null))).name()).isEqualTo("count");
        assertThat(Jobs.of(spec(b -> b.setVerify(true))).name()).isEqualTo("verify");
        assertThat(Jobs.of(spec(b -> b.setMirror(true))).name()).isEqualTo("mirror");
        assertThat(Jobs.of(spec(b -> b.setChangedOnly(true))).name()).isEqualTo("changed-only");
    }

    @Test
    void aSpecNamingItsJobRunsItAndKeepsTheFlagsOfTheVersionBefore() {
        for (String name : new String[] {"copy", "count", "verify", "mirror", "changed-only"}) {
            ScanSpec spec = Jobs.name(ScanSpec.newBuilder(spec(b -> b)), Jobs.named(name), Map.of()).build();
            assertThat(spec.getJob()).isEqualTo(new JobRef(name, Map.of()));
            assertThat(Jobs.of(spec).name()).isEqualTo(name);
            spec.setJob(null); // as a worker of the version before reads it
            assertThat(Jobs.of(spec).name()).as(name + " by its flags").isEqualTo(name);
        }
        assertThat(Jobs.of(spec(b -> b.setJob(new JobRef("verify", Map.of())))).name()).isEqualTo("verify");
        assertThat(Jobs.of(spec(b -> b.setJob(new JobRef("copy", Map.of())).setMirror(true))).name())
                .as("a flag decides, as on a worker of the version before").isEqualTo("mirror");
        assertThatThrownBy(() -> Jobs.of(spec(b -> b.setJob(new JobRef("purge", Map.of()))))).hasMessageContaining(
                "no job named 'purge'");
    }

    @Test
    void eachJobRefusesWhatItCannotDoForEveryCaller() {
        Instant since = Instant.parse("2026-01-01T00:00:00Z");
        assertThatThrownBy(() -> Jobs.named("mirror").validate(new JobRequest("--mirror", true, "A eq 1", null)))
                .isInstanceOf(JobRequest.Refused.class).hasMessageStartingWith("--mirror takes no --filter:");
        assertThatThrownBy(() -> Jobs.named("mirror").validate(new JobRequest("--mirror", true, null, since)))
                .hasMessageStartingWith("--mirror takes no --since:");
        assertThatThrownBy(() -> Jobs.named("mirror").validate(new JobRequest("--mirror", false, null, null)))
                .hasMessage("--mirror needs --dest-table: it mirrors into a table");
        assertThatThrownBy(() -> Jobs.named("verify").validate(new JobRequest("verify", true, null, since)))
                .hasMessageStartingWith("verify takes no --since:");
        assertThatThrownBy(() -> Jobs.named("changed-only").validate(new JobRequest("--changed-only", false, null,
                null))).hasMessage("--changed-only needs --dest-table: it compares with a table");
        assertThatThrownBy(() -> Jobs.named("copy").validate(new JobRequest("copy", true, null, null,
                Map.of("olderThan", "1d")))).hasMessage("copy takes no option olderThan");
        assertThatCode(() -> Jobs.named("changed-only").validate(new JobRequest("--changed-only", true, "A eq 1",
                since))).doesNotThrowAnyException();
        assertThatCode(() -> Jobs.named("verify").validate(new JobRequest("verify", true, null, null,
                Map.of("dryRunOf", "mirror")))).doesNotThrowAnyException();
    }
}
