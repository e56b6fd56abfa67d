package io.tablescan.rate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SharesTest {
    @Test
    void eachTakesTheCapInProportionToItsDemandSoTogetherTheyTakeTheCap() {
        assertThat(Shares.share(1000, 4, List.of(4, 2), true)).isEqualTo(400);
        assertThat(Shares.share(1000, 2, List.of(4, 4), true)).isEqualTo(200);
        assertThat(Shares.share(1000, 3, List.of(), true)).as("alone").isEqualTo(1000);
    }

    @Test
    void aNewcomerOrAnIdleProcessStartsAtASmallShareNeverTheWholeCap() {
        assertThat(Shares.share(1000, 8, List.of(), false)).isEqualTo(100);
        assertThat(Shares.share(1000, 0, List.of(4), true)).isEqualTo(100);
    }

    @Test
    void aNewcomerTakesWhatTheOthersLeaveUnused() {
        assertThat(Shares.share(1000, 8, List.of(), false, 0, 1)).as("the one before went idle").isEqualTo(500);
        assertThat(Shares.share(1000, 8, List.of(4), false, 300, 1)).as("half of what the other leaves")
                .isEqualTo(350);
        assertThat(Shares.share(1000, 8, List.of(4), false, 990, 1)).as("at least the floor").isEqualTo(100);
        assertThat(Shares.share(1000, 8, List.of(), false, 0, 0)).as("nobody published yet").isEqualTo(100);
    }

    @Test
    void noCapIsNoLimit() {
        assertThat(Shares.share(0, 4, List.of(1), true)).isZero();
    }
}
