package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.UserError;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import java.io.ByteArrayOutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;

/**
 * Accounts signed in by connection string and by endpoint plus SAS token; no byte of any record of the copies' topics
 * (read while they exist) and no line of any log holds the account key or the SAS signature. The children log
 * through the tool's own logback configuration (not the tests'), at DEBUG with the Azure SDK's logging on.
 */
class CredentialsIT {
    /** The tool's logback files, which a child on the test class path would otherwise not use. */
    static final String TOOL_LOGGING = "-Dlogback.configurationFile=logback.xml";

    @Test
    void copiesWithASasTokenAndAConnectionStringAndNeverLeaksEither() throws Exception {
        var azurite = LocalServices.azurite();
        SampleTable.write(LocalServices.store(), "credsource", SampleTable.rows(3_000), 8);
        String sas = accountSas(TableAccountSasPermission.parse("rwdlacu"));
        String readOnlySas = accountSas(TableAccountSasPermission.parse("rl"));
        String signature = URLDecoder.decode(sas.replaceAll(".*sig=([^&]*).*", "$1"), StandardCharsets.UTF_8);
        String readOnlySignature = URLDecoder.decode(readOnlySas.replaceAll(".*sig=([^&]*).*", "$1"), StandardCharsets.UTF_8);
        String bootstrap = LocalServices.broker().bootstrapServers();
        Map<String, String> env = Map.of(
                "TABLESCAN_ACCOUNT_SIGNED_ENDPOINT", azurite.endpoint(),
                "TABLESCAN_ACCOUNT_SIGNED_SAS_TOKEN", sas,
                "TABLESCAN_ACCOUNT_READONLY_ENDPOINT", azurite.endpoint(),
                "TABLESCAN_ACCOUNT_READONLY_SAS_TOKEN", readOnlySas,
                "TABLESCAN_ACCOUNT_KEYED_CONNECTION_STRING", azurite.connectionString(),
                "TABLESCAN_LOG_LEVEL", "DEBUG", "TABLESCAN_AZURE_LOG_LEVEL", "DEBUG", "AZURE_HTTP_LOG_DETAIL_LEVEL", "HEADERS",
                "TABLESCAN_FAULT_RATE", "0.05", "JAVA_TOOL_OPTIONS", TOOL_LOGGING);
        try (ChildProcesses children = new ChildProcesses("credentials");
                PrivateTopicRecorder privateTopics = new PrivateTopicRecorder(KafkaSettings.of(bootstrap))) {
            Process copy = children.start("copy", env, "copy", "--source-account", "signed", "--source-table",
                    "credsource", "--dest-account", "keyed", "--dest-table", "credcopy", "--page-size", "200",
                    "--kafka", bootstrap);
            assertThat(copy.waitFor(3, TimeUnit.MINUTES)).isTrue();
            assertThat(copy.exitValue()).as(children.output("copy")).isZero();
            assertThat(children.output("copy")).as("the summary names the accounts as the user did")
                    .contains("tables:        signed/credsource -> keyed/credcopy");
            TableComparer.Result check = TableComparer.compare(LocalServices.store(), "credsource", LocalServices.store(),
                    "credcopy");
            assertThat(check.equal()).as(check.examples().toString()).isTrue();

            // A SAS without write permission: refused at once, with one line that names neither secret.
            Process denied = children.start("denied", env, "copy", "--source-account", "keyed", "--source-table",
                    "credsource", "--dest-account", "readonly", "--dest-table", "deniedcopy", "--kafka", bootstrap);
            assertThat(denied.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(denied.exitValue()).as(children.output("denied")).isEqualTo(UserError.DENIED);
            assertThat(children.output("denied")).contains("403");

            List<String> secrets = List.of(azurite.accountKey(), signature, readOnlySignature,
                    sas.replaceAll(".*sig=([^&]*).*", "$1"));
            for (String label : List.of("copy", "denied")) {
                String log = children.output(label);
                assertThat(log).as(label + " log is not empty").contains(label.equals("copy") ? "DEBUG" : "403");
                secrets.forEach(secret -> assertThat(log).as(label + " log").doesNotContain(secret));
            }
            // A copy with --kafka works in topics of its own, deleted when it ends: they were read while it ran.
            byte[] copysOwn = privateTopics.stop();
            assertThat(copysOwn.length).as("bytes read from the copies' own topics").isGreaterThan(100_000);
            String entityBatches = Namespace.DEFAULT.entityBatches();
            assertThat(privateTopics.topics).as("the copies' topics read")
                    .anyMatch(t -> t.endsWith(entityBatches.substring(entityBatches.indexOf('.'))));
            for (String secret : secrets) {
                assertThat(indexOf(copysOwn, secret.getBytes(StandardCharsets.UTF_8))).as("a secret in Kafka").isEqualTo(-1);
            }
        }
    }

    @Test
    void exportsAndImportsThroughABlobSasAliasAndNoLogLineHoldsTheSignature() throws Exception {
        SampleTable.write(LocalServices.store(), "credblobsource", SampleTable.rows(500), 8);
        var blobs = new com.azure.storage.blob.BlobServiceClientBuilder()
                .connectionString(AzuriteBlob.shared().connectionString()).buildClient();
        String sas = blobs.generateAccountSas(new com.azure.storage.common.sas.AccountSasSignatureValues(
                OffsetDateTime.now().plusHours(1), com.azure.storage.common.sas.AccountSasPermission.parse("rwdlc"),
                com.azure.storage.common.sas.AccountSasService.parse("b"),
                com.azure.storage.common.sas.AccountSasResourceType.parse("sco")));
        String signature = sas.replaceAll(".*sig=([^&]*).*", "$1");
        List<String> secrets = List.of(signature, URLDecoder.decode(signature, StandardCharsets.UTF_8),
                LocalServices.azurite().accountKey());
        Map<String, String> env = new java.util.HashMap<>(Map.of(
                "TABLESCAN_ACCOUNT_SASBLOB_BLOB_ENDPOINT", AzuriteBlob.shared().endpoint(),
                "TABLESCAN_ACCOUNT_SASBLOB_SAS_TOKEN", sas,
                "TABLESCAN_ACCOUNT_KEYED_CONNECTION_STRING", LocalServices.azurite().connectionString(),
                "TABLESCAN_LOG_LEVEL", "DEBUG", "TABLESCAN_AZURE_LOG_LEVEL", "DEBUG",
                "AZURE_HTTP_LOG_DETAIL_LEVEL", "BODY_AND_HEADERS", "JAVA_TOOL_OPTIONS", TOOL_LOGGING));
        try (ChildProcesses children = new ChildProcesses("credentials-blob-" + System.nanoTime())) {
            Process export = children.start("export", env, "export", "--source-account", "keyed", "--source-table",
                    "credblobsource", "--to-container", "credbackups", "--to-prefix", "sas/1", "--to-account", "sasblob");
            assertThat(export.waitFor(3, TimeUnit.MINUTES)).isTrue();
            assertThat(export.exitValue()).as(children.output("export")).isZero();
            env.put("TABLESCAN_AZURE_LOG_LEVEL", "VERBOSE"); // the SDK's own name for its most detailed level
            env.put("TABLESCAN_LOG_FORMAT", "json");
            Process in = children.start("import", env, "import", "--from-container", "credbackups", "--from-prefix",
                    "sas/1", "--from-account", "sasblob", "--dest-account", "keyed", "--dest-table", "credblobrestored");
            assertThat(in.waitFor(3, TimeUnit.MINUTES)).isTrue();
            assertThat(in.exitValue()).as(children.output("import")).isZero();
            TableComparer.Result check = TableComparer.compare(LocalServices.store(), "credblobsource",
                    LocalServices.store(), "credblobrestored");
            assertThat(check.equal()).as(check.examples().toString()).isTrue();
            for (String label : List.of("export", "import")) {
                String log = children.output(label);
                assertThat(log).as(label + ": the Blob requests' URLs are logged, masked").contains("sig=REDACTED")
                        .contains("DEBUG");
                secrets.forEach(secret -> assertThat(log).as(label + " log").doesNotContain(secret));
            }
        }
    }

    private static String accountSas(TableAccountSasPermission permissions) {
        return new TableServiceClientBuilder().connectionString(LocalServices.azurite().connectionString()).buildClient()
                .generateAccountSas(new TableAccountSasSignatureValues(OffsetDateTime.now().plusHours(1), permissions,
                        new TableAccountSasService().setTableAccess(true),
                        new TableAccountSasResourceType().setService(true).setContainer(true).setObject(true)));
    }

    /**
     * Reads every record (aborted ones too) of every topic of a copy's private namespace while it exists: the copy
     * deletes its topics when it ends, so they cannot be read afterwards.
     */
    static final class PrivateTopicRecorder implements AutoCloseable {
        private final ByteArrayOutputStream all = new ByteArrayOutputStream();
        final java.util.Set<String> topics = java.util.concurrent.ConcurrentHashMap.newKeySet();
        private final java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
        private final Thread thread;

        PrivateTopicRecorder(KafkaSettings kafka) {
            this(kafka, java.util.regex.Pattern.compile("tablescan-copy-[0-9a-f]{8}\\..*"));
        }

        /** Reads the topics whose names match {@code names}. */
        PrivateTopicRecorder(KafkaSettings kafka, java.util.regex.Pattern names) {
            var props = kafka.reader();
            props.put("isolation.level", "read_uncommitted");
            props.put("group.id", "credentials-it-" + java.util.UUID.randomUUID());
            props.put("auto.offset.reset", "earliest");
            props.put("enable.auto.commit", "false");
            props.put("metadata.max.age.ms", "200"); // sees a copy's topics soon after they are made
            KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props);
            consumer.subscribe(names);
            thread = Thread.ofPlatform().name("private-topic-recorder").start(() -> {
                try (consumer) {
                    while (!stopping.get()) {
                        consumer.poll(java.time.Duration.ofMillis(100)).forEach(record -> {
                            topics.add(record.topic());
                            all.writeBytes(record.key() == null ? new byte[0] : record.key());
                            all.writeBytes(record.value() == null ? new byte[0] : record.value());
                            record.headers().forEach(h -> all.writeBytes(h.value() == null ? new byte[0] : h.value()));
                        });
                    }
                } catch (RuntimeException e) {
                    // A topic deleted under the consumer can end the recording early: what was read stands.
                }
            });
        }

        byte[] stop() throws InterruptedException {
            close();
            return all.toByteArray();
        }

        @Override
        public void close() throws InterruptedException {
            stopping.set(true);
            thread.join(java.time.Duration.ofSeconds(30));
        }
    }

    static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
