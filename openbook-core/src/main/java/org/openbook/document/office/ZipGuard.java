package org.openbook.document.office;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveInputStream;
import org.openbook.document.LoadException;
import org.openbook.document.LoadLimits;

/**
 * One streaming pass over a zip container (OOXML or OpenDocument) before any parser builds a tree
 * of it: every entry is inflated, held to POI's zip-bomb ratio
 * ({@value OfficeFiles#MIN_INFLATE_RATIO} of its inflated size must be on disk, past the first
 * {@value #GRACE_BYTES} bytes) and counted against
 * {@link LoadLimits#maxInflatedBytes()}, and the elements and attributes of every XML part are
 * counted with StAX (no DTDs, no external entities) against {@link LoadLimits#maxXmlNodes()}.
 * Nothing but the entries asked for is kept, so the pass needs memory for those only, and a file
 * over a limit is refused as {@link LoadException.Reason#TOO_LARGE} naming the limit — the ratio
 * check alone lets through a 185 MB part that compresses 36:1.
 */
final class ZipGuard {

  private static final XMLInputFactory STAX = XMLInputFactory.newFactory();

  static {
    STAX.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    STAX.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    STAX.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
  }

  /** Inflated bytes of an entry before its ratio is checked (POI's grace size). */
  static final long GRACE_BYTES = 100_000;

  private ZipGuard() {}

  /**
   * Checks {@code bytes} (a zip) against {@code limits} and returns the entries named in
   * {@code keep}.
   *
   * @throws LoadException TOO_LARGE naming the limit; CORRUPT or TOO_LARGE (zip bomb ratio) as
   *     {@link OfficeFiles#failure} decides for a broken archive
   */
  static Map<String, byte[]> scan(byte[] bytes, String source, String kind, LoadLimits limits,
      Set<String> keep) throws LoadException {
    Map<String, byte[]> out = new HashMap<>();
    long[] inflated = {0};
    long nodes = 0;
    try (ZipArchiveInputStream zip = new ZipArchiveInputStream(new ByteArrayInputStream(bytes))) {
      for (ZipArchiveEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        if (e.isDirectory()) {
          continue;
        }
        String name = e.getName();
        InputStream entry = new Counting(zip, inflated, limits, source);
        boolean xml = isXml(name);
        if (keep.contains(name)) {
          ByteArrayOutputStream buf = new ByteArrayOutputStream();
          entry.transferTo(buf);
          byte[] data = buf.toByteArray();
          out.put(name, data);
          if (xml) {
            nodes = count(new ByteArrayInputStream(data), nodes, limits, source);
          }
        } else if (xml) {
          nodes = count(entry, nodes, limits, source);
          entry.transferTo(java.io.OutputStream.nullOutputStream());
        } else {
          entry.transferTo(java.io.OutputStream.nullOutputStream());
        }
      }
    } catch (Limit l) {
      throw l.exception;
    } catch (IOException | RuntimeException e) {
      if (e.getCause() instanceof Limit l) {
        throw l.exception;
      }
      throw OfficeFiles.failure(source, kind, e);
    }
    return out;
  }

  private static boolean isXml(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.endsWith(".xml") || n.endsWith(".rels") || n.endsWith(".vml");
  }

  /**
   * Adds the elements and attributes of one XML part to {@code nodes}. A part StAX cannot read is
   * counted by its {@code <} characters instead (an upper bound), so a malformed part cannot
   * hide its size from the cap while another parser might still read it.
   */
  private static long count(InputStream in, long nodes, LoadLimits limits, String source)
      throws IOException {
    long n = nodes;
    XMLStreamReader r = null;
    try {
      r = STAX.createXMLStreamReader(in);
      while (r.hasNext()) {
        if (r.next() == XMLStreamConstants.START_ELEMENT) {
          n += 1 + r.getAttributeCount();
          if (n > limits.maxXmlNodes()) {
            throw new Limit(tooManyNodes(source, limits));
          }
        }
      }
      return n;
    } catch (XMLStreamException e) {
      for (int b = in.read(); b >= 0; b = in.read()) {
        if (b == '<' && ++n > limits.maxXmlNodes()) {
          throw new Limit(tooManyNodes(source, limits));
        }
      }
      return n;
    } finally {
      if (r != null) {
        try {
          r.close();
        } catch (XMLStreamException ignored) {
          // nothing held beyond the stream, which the caller drains
        }
      }
    }
  }

  private static LoadException tooManyNodes(String source, LoadLimits limits) {
    return LoadLimits.tooLarge(source, "XML parts", limits.maxXmlNodes(),
        "elements and attributes", "ingest.maxXmlNodes");
  }

  /** A limit was passed; unchecked so it can leave StAX and stream callbacks. */
  private static final class Limit extends RuntimeException {
    final LoadException exception;

    Limit(LoadException exception) {
      super(exception.getMessage(), null, false, false);
      this.exception = exception;
    }
  }

  /** The current entry's bytes, added to the file's inflated total as they are read. */
  private static final class Counting extends FilterInputStream {
    private final ZipArchiveInputStream zip;
    private final long[] total;
    private final LoadLimits limits;
    private final String source;
    private long entry;

    Counting(ZipArchiveInputStream zip, long[] total, LoadLimits limits, String source) {
      super(zip);
      this.zip = zip;
      this.total = total;
      this.limits = limits;
      this.source = source;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        add(1);
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        add(n);
      }
      return n;
    }

    @Override
    public void close() {
      // the zip stream stays open for the next entry
    }

    private void add(long n) {
      entry += n;
      if (entry > GRACE_BYTES
          && (double) zip.getCompressedCount() / entry < OfficeFiles.MIN_INFLATE_RATIO) {
        throw new Limit(new LoadException(LoadException.Reason.TOO_LARGE, source
            + ": zip entry inflates more than " + Math.round(1 / OfficeFiles.MIN_INFLATE_RATIO)
            + " times (zip bomb)"));
      }
      total[0] += n;
      if (total[0] > limits.maxInflatedBytes()) {
        throw new Limit(LoadLimits.tooLarge(source, "inflated content",
            limits.maxInflatedBytes(), "bytes", "ingest.maxInflatedBytes"));
      }
    }
  }
}
