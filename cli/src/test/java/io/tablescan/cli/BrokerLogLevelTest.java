package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The tool's own logging configuration (logback.xml, not the tests'): a command that runs the broker in-process shows
 * none of the broker's expected ERROR noise, while the clients' and tablescan's errors still show; the broker command
 * shows its own errors.
 */
class BrokerLogLevelTest {
    /**
     * The messages that reach the console appender's logger (ROOT) when each logger logs one ERROR, under the level the
     * command's arguments and environment give.
     */
    private static String stderr(String[] args, Map<String, String> env) throws Exception {
        String before = System.getProperty(TablescanCommand.BROKER_LOG_LEVEL);
        LoggerContext context = new LoggerContext();
        try {
            System.setProperty(TablescanCommand.BROKER_LOG_LEVEL, TablescanCommand.brokerLogLevel(args, env));
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(BrokerLogLevelTest.class.getResource("/logback.xml"));
            Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
            assertThat(root.getAppender("ERR")).as("the console appender").isNotNull();
            ListAppender<ILoggingEvent> shown = new ListAppender<>();
            shown.setContext(context);
            shown.start();
            root.addAppender(shown);
            context.getLogger("kafka.server.ReplicaManager").error("replica noise: OutOfOrderSequenceException");
            context.getLogger("org.apache.kafka.coordinator.common.runtime.CoordinatorTimerImpl")
                    .error("coordinator noise: NotLeaderOrFollowerException");
            context.getLogger("org.apache.kafka.clients.producer.internals.Sender").error("client fault");
            context.getLogger("io.tablescan.runtime.ItemProcessor").error("tablescan fault");
            return shown.list.stream().map(ILoggingEvent::getFormattedMessage).collect(Collectors.joining("\n"));
        } finally {
            context.stop();
            if (before == null) {
                System.clearProperty(TablescanCommand.BROKER_LOG_LEVEL);
            } else {
                System.setProperty(TablescanCommand.BROKER_LOG_LEVEL, before);
            }
        }
    }

    @Test
    void aCommandWithTheBrokerInProcessShowsNoneOfItsNoiseButStillARealFault() throws Exception {
        String shown = stderr(new String[] {"copy", "--source-table", "a"}, Map.of());
        assertThat(shown).doesNotContain("replica noise").doesNotContain("coordinator noise")
                .contains("client fault").contains("tablescan fault");
    }

    @Test
    void theBrokerCommandAndAnExplicitLevelShowTheBrokersErrors() throws Exception {
        assertThat(stderr(new String[] {"broker"}, Map.of())).contains("replica noise").contains("coordinator noise");
        assertThat(stderr(new String[] {"copy"}, Map.of("TABLESCAN_BROKER_LOG_LEVEL", "ERROR")))
                .contains("replica noise");
        assertThat(stderr(new String[] {"copy"}, Map.of("TABLESCAN_KAFKA_LOG_LEVEL", "ERROR")))
                .contains("coordinator noise");
    }
}
