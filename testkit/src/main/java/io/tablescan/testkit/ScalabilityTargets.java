package io.tablescan.testkit;

/**
 * The table service's scalability targets: at most so many entities a second per account and per partition,
 * read or written. Zero means no limit. A value only: each in-memory account paces itself with its own
 * {@link AccountPace}, as each real account has its own targets. A request over them is answered late, or with
 * {@code throttles}, half of them with 503 (ServerBusy) at once, as the real service does.
 */
public record ScalabilityTargets(int accountPerSecond, int partitionPerSecond, boolean throttles) {
    public static final ScalabilityTargets NONE = new ScalabilityTargets(0, 0);

    public ScalabilityTargets(int accountPerSecond, int partitionPerSecond) {
        this(accountPerSecond, partitionPerSecond, false);
    }

    /** A new, idle pace for one account. */
    AccountPace newPace() {
        return new AccountPace(this);
    }
}
