package org.openbook.app.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.attack.RealServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 30, attack suite: XML attacks through uploads to a real {@code openbook serve}. External
 * entities (file and http, general and parameter, an external DTD, XInclude) in .docx, .odt and
 * .html uploads never bring the canary file's text into any search or ask reply and never make
 * the server fetch a URL; entity expansion (billion laughs, quadratic blow-up) is refused or
 * skipped in bounded time and the server stays healthy. A control upload of the same kind
 * without the attack is indexed, so the files are really parsed.
 */
@ExtendWith(RealServer.Extension.class)
@org.junit.jupiter.api.Tag("attack")
class AttackXmlTest {
  /** The canary's text beyond its token (a reply may echo a question naming the token). */
  private static final String CANARY_SECRET = "the canary outside the docs folder";
  private static RealServer s;
  private static String canaryUrl;

  @BeforeAll
  static void setUp() {
    s = RealServer.shared();
    canaryUrl = s.canary().toUri().toString();
  }

  private static String enc(String v) {
    return URLEncoder.encode(v, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Uploads one file as the admin; returns the sources that were indexed (for clean-up). */
  private static List<String> upload(String name, byte[] bytes, long maxSeconds)
      throws Exception {
    long t0 = System.nanoTime();
    HttpResponse<String> r = s.upload("tok-admin", "public", Map.of(name, bytes));
    List<String> indexed = new ArrayList<>();
    if (r.statusCode() == 202) {
      JsonNode job = s.awaitJob("tok-admin", json(r).get("jobId").asText(), maxSeconds);
      for (JsonNode f : job.at("/result/files")) {
        if (!f.path("status").asText().equals("skipped")) {
          indexed.add(f.get("source").asText());
        }
      }
    } else {
      assertThat(r.statusCode()).as(r.body()).isBetween(400, 499);
    }
    assertThat((System.nanoTime() - t0) / 1e9).as("seconds to refuse or index %s", name)
        .isLessThan(maxSeconds);
    return indexed;
  }

  private static void cleanUp(List<String> sources) throws Exception {
    for (String source : sources) {
      assertThat(s.delete("/v1/documents/" + enc(source), "tok-admin").statusCode())
          .isEqualTo(200);
    }
  }

  /** Every reply the admin (who reads everything) can get about {@code probe}. */
  private static String replies(String probe) throws Exception {
    StringBuilder all = new StringBuilder();
    all.append(s.post("/v1/search", "tok-admin", "{\"question\":\"" + probe + " "
        + AttackCorpus.CANARY_TOKEN + "\",\"k\":20}").body());
    all.append(s.ask("tok-admin", "What does the " + probe + " document say?").body());
    all.append(s.post("/v1/ask", "tok-admin", RealServer.q(probe + " canary"),
        "text/event-stream").body());
    all.append(s.get("/v1/documents?limit=500", "tok-admin").body());
    return all.toString();
  }

  @Test
  void should_index_the_control_files_so_the_attack_files_are_really_parsed() throws Exception {
    List<String> indexed = new ArrayList<>();
    indexed.addAll(upload("xml-control.docx", AttackFiles.docx("", "XMLCTRLDOCX plain paragraph"), 120));
    indexed.addAll(upload("xml-control.odt", AttackFiles.odt("", "XMLCTRLODT plain paragraph"), 120));
    try {
      assertThat(indexed).containsExactlyInAnyOrder("public/xml-control.docx",
          "public/xml-control.odt");
      assertThat(s.post("/v1/search", "tok-admin", "{\"question\":\"XMLCTRLDOCX XMLCTRLODT\","
          + "\"k\":20}").body()).contains("XMLCTRLDOCX plain paragraph", "XMLCTRLODT plain paragraph");
    } finally {
      cleanUp(indexed);
    }
  }

  static Stream<Arguments> externalEntities() throws Exception {
    RealServer srv = RealServer.shared();
    String file = srv.canary().toUri().toString();
    String oob = srv.oobUrl("dtd");
    String xi = "<xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"" + file
        + "\" parse=\"text\"/>";
    return Stream.of(
        Arguments.of("xxe-file.docx", AttackFiles.docx("<!DOCTYPE w:document [<!ENTITY xxe SYSTEM \""
            + file + "\">]>", "XXEPROBE docx &xxe; end")),
        Arguments.of("xxe-param.docx", AttackFiles.docx("<!DOCTYPE w:document [<!ENTITY % p SYSTEM \""
            + oob + "\"> %p;]>", "XXEPROBE docx param &oob; end")),
        Arguments.of("xxe-dtd.docx", AttackFiles.docx("<!DOCTYPE w:document SYSTEM \"" + oob + "\">",
            "XXEPROBE docx dtd &oob; end")),
        Arguments.of("xxe-http.docx", AttackFiles.docx("<!DOCTYPE w:document [<!ENTITY web SYSTEM \""
            + srv.oobUrl("entity") + "\">]>", "XXEPROBE docx http &web; end")),
        Arguments.of("xxe-xinclude.docx", AttackFiles.docx("", "XXEPROBE docx xinclude end",
            "</w:t>" + xi + "<w:t>tail")),
        Arguments.of("xxe-file.odt", AttackFiles.odt("<!DOCTYPE office:document-content [<!ENTITY xxe"
            + " SYSTEM \"" + file + "\">]>", "XXEPROBE odt &xxe; end")),
        Arguments.of("xxe-param.odt", AttackFiles.odt("<!DOCTYPE office:document-content [<!ENTITY % p"
            + " SYSTEM \"" + oob + "\"> %p;]>", "XXEPROBE odt param &oob; end")),
        Arguments.of("xxe-xinclude.odt", AttackFiles.odt("", "XXEPROBE odt xinclude " + xi + " end")),
        Arguments.of("xxe.html", ("<!DOCTYPE html [<!ENTITY xxe SYSTEM \"" + file + "\">]>"
            + "<html><head><title>XXEPROBE html</title><link rel=\"stylesheet\" href=\""
            + srv.oobUrl("css") + "\"></head><body><p>XXEPROBE html &xxe; end</p>"
            + "<iframe src=\"" + file + "\"></iframe><object data=\"" + file + "\"></object>"
            + "<img src=\"" + srv.oobUrl("img") + "\"><p>" + xi + "</p></body></html>")
            .getBytes(StandardCharsets.UTF_8)),
        Arguments.of("xxe.htm", ("<?xml version=\"1.0\"?><!DOCTYPE html [<!ENTITY xxe SYSTEM \""
            + file + "\">]><html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>XXEPROBE xhtml"
            + " &xxe; end</p></body></html>").getBytes(StandardCharsets.UTF_8)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("externalEntities")
  void should_never_resolve_an_external_entity_of_an_upload(String name, byte[] bytes)
      throws Exception {
    int fetchesBefore = s.oobHits.get();

    List<String> indexed = upload(name, bytes, 120);
    try {
      String replies = replies("XXEPROBE");
      assertThat(replies).doesNotContain(CANARY_SECRET).doesNotContain("OOBFETCHED");
      for (String source : indexed) {
        JsonNode hits = json(s.post("/v1/search", "tok-admin",
            "{\"question\":\"XXEPROBE\",\"k\":20}")).get("hits");
        for (JsonNode h : hits) {
          if (h.get("source").asText().equals(source)) {
            assertThat(s.get("/v1/sections/" + enc(h.get("chunkId").asText()), "tok-admin")
                .body()).doesNotContain(CANARY_SECRET, "OOBFETCHED");
          }
        }
      }
      assertThat(s.oobHits.get()).as("URLs fetched by the server's XML parsers")
          .isEqualTo(fetchesBefore);
      s.assertHealthy();
    } finally {
      cleanUp(indexed);
    }
  }

  static Stream<Arguments> expansions() throws Exception {
    String big = "a".repeat(100_000);
    String quadratic = "&a;".repeat(2000);
    return Stream.of(
        Arguments.of("laughs.docx", AttackFiles.docx(AttackFiles.billionLaughs("w:document"),
            "LAUGHPROBE &lol9; end")),
        Arguments.of("laughs.odt", AttackFiles.odt(AttackFiles.billionLaughs(
            "office:document-content"), "LAUGHPROBE &lol9; end")),
        Arguments.of("laughs.html", (AttackFiles.billionLaughs("html")
            + "<html><body><p>LAUGHPROBE &lol9; end</p></body></html>")
            .getBytes(StandardCharsets.UTF_8)),
        Arguments.of("quadratic.docx", AttackFiles.docx("<!DOCTYPE w:document [<!ENTITY a \"" + big
            + "\">]>", "LAUGHPROBE " + quadratic)),
        Arguments.of("quadratic.odt", AttackFiles.odt("<!DOCTYPE office:document-content"
            + " [<!ENTITY a \"" + big + "\">]>", "LAUGHPROBE " + quadratic)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expansions")
  void should_refuse_or_skip_entity_expansion_in_bounded_time_and_stay_healthy(String name,
      byte[] bytes) throws Exception {
    List<String> indexed = upload(name, bytes, 60);
    try {
      s.assertHealthy();
      String search = s.post("/v1/search", "tok-admin",
          "{\"question\":\"LAUGHPROBE\",\"k\":20}").body();
      assertThat(search).doesNotContain("lollollol").doesNotContain("a".repeat(1000));
    } finally {
      cleanUp(indexed);
    }
  }
}
