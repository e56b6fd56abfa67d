package io.tablescan.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.status.Status;
import org.junit.jupiter.api.Test;

/** Credentials masked in any text a library logs, and the tool's logback files wrap their encoders with it. */
class RedactionTest {
    private static final String SIG = "sig=aBc%2Bd%2FeF0%3D";

    @Test
    void masksSignaturesKeysAndTokensAndKeepsTheRest() {
        assertThat(Redaction.mask("PUT http://127.0.0.1:1/acct/c/p/x.gz?sv=2025-01-05&ss=b&" + SIG + "&sp=rw done"))
                .isEqualTo("PUT http://127.0.0.1:1/acct/c/p/x.gz?sv=2025-01-05&ss=b&sig=REDACTED&sp=rw done");
        assertThat(Redaction.mask("url=https%3A%2F%2Fa%3Fsig%3DaBc%252B%26sp%3Dr"))
                .isEqualTo("url=https%3A%2F%2Fa%3Fsig%3DREDACTED%26sp%3Dr");
        assertThat(Redaction.mask("DefaultEndpointsProtocol=https;AccountName=a;AccountKey=Zm9vYmFy==;EndpointSuffix=x"))
                .isEqualTo("DefaultEndpointsProtocol=https;AccountName=a;AccountKey=REDACTED;EndpointSuffix=x");
        assertThat(Redaction.mask("Authorization: SharedKey devstoreaccount1:Zm9v+YmFy/="))
                .isEqualTo("Authorization: SharedKey devstoreaccount1:REDACTED");
        assertThat(Redaction.mask("Authorization=Bearer abc.def-ghi_jkl"))
                .isEqualTo("Authorization=Bearer REDACTED");
        assertThat(Redaction.mask("grant_type=client_credentials&client_id=x&client_secret=s3cr3t~&scope=y"))
                .isEqualTo("grant_type=client_credentials&client_id=x&client_secret=REDACTED&scope=y");
        assertThat(Redaction.mask("{\"access_token\":\"opaque-token\",\"expires_on\":\"1\"}"))
                .isEqualTo("{\"access_token\":\"REDACTED\",\"expires_on\":\"1\"}");
        assertThat(Redaction.mask("token eyJ0eXAiOiJKV1Qi.eyJhdWQiOiJodHRwcyI6.c2lnbmF0dXJl end"))
                .isEqualTo("token REDACTED end");
        // As a JSON encoder writes them: slashes and quotes escaped (a JSON text inside a JSON log line).
        assertThat(Redaction.mask("\"formattedMessage\":\"Authorization: SharedKey acct:Zm9v\\/YmFy+abc= sent\""))
                .isEqualTo("\"formattedMessage\":\"Authorization: SharedKey acct:REDACTED sent\"");
        assertThat(Redaction.mask("Bearer abc\\/def.ghi next")).isEqualTo("Bearer REDACTED next");
        assertThat(Redaction.mask("{\\\"access_token\\\":\\\"opaque-tok\\\",\\\"expires_in\\\":1}"))
                .isEqualTo("{\\\"access_token\\\":\\\"REDACTED\\\",\\\"expires_in\\\":1}");
        assertThat(Redaction.mask("next=https%253A%252F%252Fa%253Fsig%253DaBc%25252B%2526sp%253Dr"))
                .isEqualTo("next=https%253A%252F%252Fa%253Fsig%253DREDACTED%2526sp%253Dr");
        String plain = "signature checks: 3 designs, a key=value pair, a Bearer";
        assertThat(Redaction.mask(plain)).isSameAs(plain);
    }

    @Test
    void theToolsLogbackFilesMaskEveryLineTheyWrite() throws Exception {
        for (String file : new String[] {"logback.xml", "logback-json.xml"}) {
            LoggerContext context = new LoggerContext();
            context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(RedactionTest.class.getResource("/" + file));
            assertThat(context.getStatusManager().getCopyOfStatusList()).as(file)
                    .noneMatch(status -> status.getLevel() >= Status.WARN);
            var appender = (ConsoleAppender<?>) context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("ERR");
            assertThat(appender.getEncoder()).as(file).isInstanceOf(RedactingEncoder.class);
            var encoder = (RedactingEncoder) appender.getEncoder();
            var event = new ch.qos.logback.classic.spi.LoggingEvent("x", context.getLogger("reactor.netty"),
                    ch.qos.logback.classic.Level.DEBUG, "GET {}", new IllegalStateException("at ?" + SIG),
                    new Object[] {"http://h/c?" + SIG});
            String line = new String(encoder.encode(event), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(line).as(file).contains("sig=REDACTED").doesNotContain("aBc");
            context.stop();
        }
    }
}
