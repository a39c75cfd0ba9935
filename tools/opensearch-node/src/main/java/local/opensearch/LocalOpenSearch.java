package local.opensearch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.reindex.ReindexPlugin;
import org.opensearch.painless.PainlessPlugin;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugins.Plugin;
import org.opensearch.transport.Netty4Plugin;

/**
 * One OpenSearch node on 127.0.0.1, for tests and local mode: the modules the service's adapter
 * needs (HTTP over Netty, delete by query) are loaded from the classpath, as a distribution would
 * load them from its modules folder.
 *
 * Arguments: the node's home folder (data and logs under it) and its HTTP port. It prints
 * "OPENSEARCH_READY <port>" once it answers, and stops when its standard input closes, so it never
 * outlives the process that started it.
 */
public final class LocalOpenSearch {
    private LocalOpenSearch() {}

    /** Node's constructor taking classpath plugins is protected: this subclass reaches it. */
    private static final class ClasspathNode extends Node {
        ClasspathNode(Settings settings, Collection<Class<? extends Plugin>> plugins) {
            super(InternalSettingsPreparer.prepareEnvironment(settings, Collections.emptyMap(), null, () -> "local"), plugins, true);
        }
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath();
        int port = Integer.parseInt(args[1]);
        Files.createDirectories(home.resolve("data"));
        Files.createDirectories(home.resolve("logs"));
        Settings settings = Settings.builder()
            .put("path.home", home.toString())
            .put("path.data", home.resolve("data").toString())
            .put("path.logs", home.resolve("logs").toString())
            .put("cluster.name", "usage-analytics-local")
            .put("node.name", "local")
            .put("discovery.type", "single-node")
            .put("network.host", "127.0.0.1")
            .put("http.port", port)
            .put("transport.port", "9300-9400")
            .put("http.type", "netty4")
            .put("transport.type", "netty4")
            // A test machine's disk is often fuller than OpenSearch's watermarks like.
            .put("cluster.routing.allocation.disk.threshold_enabled", false)
            // The node runs the serial collector (small and predictable on 2 cores), whose heap holds
            // garbage until it fills: the real-memory breaker would count that garbage and refuse bulk
            // requests (429) with the heap nearly all collectable. Count the requests' own reservations.
            .put("indices.breaker.total.use_real_memory", false)
            .build();
        LogConfigurator.configureWithoutConfig(settings);
        Node node = new ClasspathNode(settings, List.of(Netty4Plugin.class, ReindexPlugin.class, PainlessPlugin.class));
        node.start();
        System.out.println("OPENSEARCH_READY " + port);
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
            } catch (Exception ignored) {
                // stopping anyway
            }
        }));
        // The parent holds our stdin: when it goes (even killed), so do we.
        while (System.in.read() != -1) {
            // nothing is read from the parent; it only keeps the pipe open
        }
        System.exit(0);
    }
}
