package conformance;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;
import com.github.f4b6a3.uuid.UuidCreator;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.function.Supplier;

/**
 * Prints UUIDv7s of uuid-creator and java-uuid-generator for sequuid's conformance harness.
 *
 * <p>Usage: IMPLEMENTATION burst COUNT | IMPLEMENTATION threads THREADS COUNT. Output: "version V", "toolchain
 * T", "start US", one "id THREAD HEX" per id in the order each thread made them, "end US". Threads start
 * together behind a barrier and share one generator, as an application shares one.
 */
public final class Main {
    private Main() {}

    private static long nowUs() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    private static String versionOf(Class<?> type) {
        String version = type.getPackage().getImplementationVersion();
        return version != null ? version : "unknown";
    }

    public static void main(String[] args) throws Exception {
        Supplier<UUID> generate;
        String version;
        switch (args[0]) {
            case "uuid-creator" -> {
                generate = UuidCreator::getTimeOrderedEpoch;
                version = versionOf(UuidCreator.class);
            }
            case "java-uuid-generator" -> {
                TimeBasedEpochGenerator generator = Generators.timeBasedEpochGenerator();
                generate = generator::generate;
                version = versionOf(Generators.class);
            }
            default -> {
                System.err.println("unknown implementation " + args[0]);
                System.exit(2);
                return;
            }
        }
        int threads = args[1].equals("threads") ? Integer.parseInt(args[2]) : 1;
        int count = Integer.parseInt(args[1].equals("threads") ? args[3] : args[2]);
        List<List<UUID>> made = new ArrayList<>();
        CyclicBarrier barrier = new CyclicBarrier(threads + 1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<UUID> ids = new ArrayList<>(count);
            made.add(ids);
            Thread worker = new Thread(() -> {
                try {
                    barrier.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                for (int i = 0; i < count; i++) {
                    ids.add(generate.get());
                }
            });
            workers.add(worker);
            worker.start();
        }
        // the clock is read before the threads are let go, so that no id can be made before it
        long start = nowUs();
        barrier.await();
        for (Thread worker : workers) {
            worker.join();
        }
        long end = nowUs();
        print(version, start, end, made);
    }

    private static void print(String version, long start, long end, List<List<UUID>> made) throws IOException {
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.US_ASCII), 1 << 20);
        out.write("version " + version + "\n");
        out.write("toolchain java " + System.getProperty("java.version") + "\n");
        out.write("start " + start + "\n");
        for (int t = 0; t < made.size(); t++) {
            for (UUID id : made.get(t)) {
                out.write("id " + t + " " + id + "\n");
            }
        }
        out.write("end " + end + "\n");
        out.flush();
    }
}
