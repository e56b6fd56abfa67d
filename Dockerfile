# One image for every role: `worker discovery|partition|copy`, `ledger`, `start`, `status`, `sample`, `broker`.
# `bench` is not in it (./tablescan bench runs from a source checkout).
#   docker build -t tablescan:local .
FROM maven:3.9-eclipse-temurin-21 AS build
WORKDIR /src
COPY pom.xml ./
COPY spi spi
COPY schemas schemas
COPY core core
COPY adapters adapters
COPY testkit testkit
COPY local local
COPY workers workers
COPY ledger ledger
COPY export export
COPY runner runner
COPY cli cli
# The bench, the example plugins, the property test and the integration tests are not in the image: only their poms,
# which the parent's module list names.
COPY bench/pom.xml bench/pom.xml
COPY properties/pom.xml properties/pom.xml
COPY examples/swap-keys-sink/pom.xml examples/swap-keys-sink/pom.xml
COPY integration-tests/pom.xml integration-tests/pom.xml
RUN mvn -B -q -DskipTests package -pl cli -am

FROM eclipse-temurin:21-jre
# /backups: the compose backup service's volume, writable by the user that runs tablescan. /var/lib/tablescan: the
# local jobs' states (TABLESCAN_STATE_DIR below), as that system user has no home folder.
RUN useradd --system --uid 10001 tablescan && mkdir /backups /var/lib/tablescan \
    && chown 10001 /backups /var/lib/tablescan
COPY --from=build /src/cli/target/tablescan.jar /opt/tablescan/tablescan.jar
COPY --from=build /src/cli/target/lib /opt/tablescan/lib
USER 10001
# A local copy, count or export keeps its state here until it ends, so that the same command run again resumes it; a
# volume keeps the embedded broker's data out of the container's layer (mount one to resume after the container).
ENV TABLESCAN_STATE_DIR=/var/lib/tablescan/jobs
VOLUME /var/lib/tablescan
# Size the heap from the container's memory limit.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
# Workers and the ledger serve /metrics, /health/live and /health/ready here.
ENV TABLESCAN_METRICS_PORT=9400
EXPOSE 9400
ENTRYPOINT ["java", "-jar", "/opt/tablescan/tablescan.jar"]
CMD ["--help"]
