package org.openbook.solr;

import java.io.IOException;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.common.util.NamedList;
import org.openbook.testing.InjectedFaults;

/**
 * The Solr store's fault hook: a {@link SolrClient} that passes every request to a real client
 * through {@link InjectedFaults}, so the writer can be killed before any request reaches Solr or
 * after it took effect but before its reply arrived. Closing it closes the real client.
 */
final class FaultInjectingSolrClient extends SolrClient {

  private final SolrClient delegate;
  private final InjectedFaults faults;

  FaultInjectingSolrClient(SolrClient delegate, InjectedFaults faults) {
    this.delegate = delegate;
    this.faults = faults;
  }

  @Override
  public NamedList<Object> request(SolrRequest<?> request, String collection)
      throws SolrServerException, IOException {
    String what = request.getMethod() + " " + request.getPath();
    int index = faults.before(what);
    NamedList<Object> reply = delegate.request(request, collection);
    faults.after(index, what);
    return reply;
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
