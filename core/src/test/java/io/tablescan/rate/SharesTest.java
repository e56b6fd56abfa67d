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
    void noCapIsNoLimit() {
        assertThat(Shares.share(0, 4, List.of(1), true)).isZero();
    }
}
