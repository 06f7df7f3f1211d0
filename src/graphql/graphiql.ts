/**
 * The GraphiQL page at `/graphiql`, as Blockscout serves Absinthe's: the editor over `/api/v1/graphql` with a default
 * query for one transaction. The editor's scripts come from a CDN (pinned versions, as mercurius' and Absinthe's
 * pages load theirs); the page itself and the endpoint are Lookout's.
 */
const GRAPHIQL = "https://unpkg.com/graphiql@3.8.3";
const REACT = "https://unpkg.com/react@18.3.1/umd/react.production.min.js";
const REACT_DOM = "https://unpkg.com/react-dom@18.3.1/umd/react-dom.production.min.js";

/** Blockscout's default query (BlockScoutWeb.Plug.GraphQL.default_query). */
export function defaultQuery(transactionHash: string | null): string {
  return transactionHash
    ? `{transaction(hash: "${transactionHash}") { hash, blockNumber, value, gasUsed }}`
    : "{block(number: 0) { hash, number, timestamp }}";
}

/** `<` escaped so the JSON cannot close the script element. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, "\\u003c");

export function graphiqlPage(endpoint: string, query: string): string {
  return `<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8"/>
  <title>GraphiQL</title>
  <meta name="robots" content="noindex"/>
  <meta name="viewport" content="width=device-width, initial-scale=1"/>
  <style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>
  <link rel="stylesheet" href="${GRAPHIQL}/graphiql.min.css" crossorigin="anonymous"/>
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script src="${REACT}" crossorigin="anonymous"></script>
  <script src="${REACT_DOM}" crossorigin="anonymous"></script>
  <script src="${GRAPHIQL}/graphiql.min.js" crossorigin="anonymous"></script>
  <script>
    const endpoint = new URL(${scriptJson(endpoint)}, window.location.href).toString();
    ReactDOM.createRoot(document.getElementById("graphiql")).render(
      React.createElement(GraphiQL, {
        fetcher: GraphiQL.createFetcher({ url: endpoint }),
        defaultQuery: ${scriptJson(query)},
      }),
    );
  </script>
</body>
</html>
`;
}
