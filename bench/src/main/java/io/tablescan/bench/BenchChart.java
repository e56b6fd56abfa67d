package io.tablescan.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** Rows copied over time, one line per run of a scenario (like the reference's execution chart), as PNG. */
final class BenchChart {
    /** One run's progress: (seconds since seeding, rows written) samples. */
    record Line(String label, List<double[]> points) {}

    private BenchChart() {}

    static void write(Path file, String title, List<Line> lines) throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYSeriesCollection data = new XYSeriesCollection();
        for (Line line : lines) {
            XYSeries series = new XYSeries(line.label(), false, true);
            line.points().forEach(p -> series.add(p[0], p[1]));
            data.addSeries(series);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(title, "seconds", "rows copied", data,
                PlotOrientation.VERTICAL, true, false, false);
        chart.getXYPlot().setBackgroundPaint(Color.WHITE);
        chart.getXYPlot().setRangeGridlinePaint(Color.LIGHT_GRAY);
        chart.getXYPlot().setDomainGridlinePaint(Color.LIGHT_GRAY);
        for (int i = 0; i < lines.size(); i++) {
            chart.getXYPlot().getRenderer().setSeriesStroke(i, new BasicStroke(2f));
        }
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, 500);
    }
}
