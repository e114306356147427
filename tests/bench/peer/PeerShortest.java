// Pyramide's driver for mchung94/solitaire-player's Pyramid solver (the peer of issue #38's shortest
// lines). Only this driver is ours: it is compiled against the peer's classes, built from its own
// source (tests/bench/peer/build.sh), and run by tests/bench/bench_peer.py.
//
//   java PeerShortest solve   for each deck read from standard input (52 cards such as Th, the
//                             pyramid row by row, then the stock from its top: the peer's Deck),
//                             one JSON line: its Board Challenge solver's shortest line (each
//                             Action.toString()) and the time it took
import com.secondthorn.solitaireplayer.solvers.pyramid.Action;
import com.secondthorn.solitaireplayer.solvers.pyramid.BoardChallengeSolver;
import com.secondthorn.solitaireplayer.solvers.pyramid.Deck;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;

public final class PeerShortest {
    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("solve")) {
            solveAll();
        } else {
            System.err.println("usage: PeerShortest solve < decks");
            System.exit(2);
        }
    }

    static void solveAll() throws Exception {
        // The peer loads its 1,430 pyramid shapes (Pyramid.json) once per JVM: not counted.
        Class.forName("com.secondthorn.solitaireplayer.solvers.pyramid.Pyramid");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        int index = 0;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            long wall = System.nanoTime();
            long cpu = threads.getCurrentThreadCpuTime();
            long processCpu = os.getProcessCpuTime();
            Deck deck = new Deck(line.trim());  // (its tables for this deal: part of the solver's time)
            long dealt = System.nanoTime();
            Map<String, List<Action>> solutions = new BoardChallengeSolver().solve(deck);
            long end = System.nanoTime();
            cpu = threads.getCurrentThreadCpuTime() - cpu;
            processCpu = os.getProcessCpuTime() - processCpu;
            StringBuilder json = new StringBuilder();
            json.append("{\"index\": ").append(index++)
                .append(", \"wall_ms\": ").append(ms(end - wall))
                .append(", \"deck_ms\": ").append(ms(dealt - wall))
                .append(", \"cpu_ms\": ").append(ms(cpu))
                .append(", \"process_cpu_ms\": ").append(ms(processCpu))
                .append(", \"solved\": ").append(!solutions.isEmpty())
                .append(", \"actions\": ");
            if (solutions.isEmpty()) {
                json.append("null");
            } else {
                List<Action> actions = solutions.values().iterator().next();
                json.append('[');
                for (int i = 0; i < actions.size(); i++) {
                    json.append(i == 0 ? "" : ", ").append('"').append(actions.get(i).toString()).append('"');
                }
                json.append(']');
            }
            System.out.println(json.append('}'));
            System.out.flush();
        }
    }

    private static String ms(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.3f", nanos / 1e6);
    }
}
