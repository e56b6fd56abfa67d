package io.tablescan.it;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Makes the children's class cache ({@link ChildClassCache}) in the background as a fork's first integration test
 * class starts, not when its first child is needed: its training copy and the JVM's assembly of the cache take about
 * 40 s that both forks otherwise wait for, while the tests in this JVM have work of their own. A test that starts a
 * child before it is done waits for it, as before. Registered for every class by {@code META-INF/services}; a class
 * whose name does not end in IT (a unit test of this module, in the fast tier) starts nothing.
 */
public final class ChildClassCacheWarmUp implements BeforeAllCallback {
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    @Override
    public void beforeAll(ExtensionContext context) {
        if (context.getRequiredTestClass().getSimpleName().endsWith("IT") && STARTED.compareAndSet(false, true)) {
            Thread.ofPlatform().daemon().name("child-class-cache").start(ChildClassCache::flags);
        }
    }
}
