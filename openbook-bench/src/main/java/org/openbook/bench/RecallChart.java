package org.openbook.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;
import org.openbook.eval.ConfigResult;
import org.openbook.eval.EvalReport;

/**
 * Draws Recall@1/3/5/10 per configuration of an {@link EvalReport} as a grouped bar chart (PNG,
 * JFreeChart). Also a command: {@code RecallChart <eval.json> <out.png>} for the JSON that
 * {@code openbook eval --out} writes.
 */
public final class RecallChart {

  private RecallChart() {}

  /** Writes the chart of {@code report} to {@code png} (900 × 500 px). */
  public static void write(EvalReport report, Path png) throws IOException {
    System.setProperty("java.awt.headless", "true");
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    for (ConfigResult c : report.configs()) {
      for (int k : new int[] {1, 3, 5, 10}) {
        data.addValue(c.overall().recallAt(k), c.name(), "Recall@" + k);
      }
    }
    JFreeChart chart = ChartFactory.createBarChart(report.title(), "cut-off", "recall", data,
        PlotOrientation.VERTICAL, true, false, false);
    chart.getCategoryPlot().getRangeAxis().setRange(0, 1);
    ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 500);
  }

  /** {@code RecallChart <eval.json> <out.png>}. */
  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: RecallChart <eval.json> <out.png>");
      System.exit(2);
    }
    write(new ObjectMapper().readValue(Path.of(args[0]).toFile(), EvalReport.class),
        Path.of(args[1]));
  }
}
