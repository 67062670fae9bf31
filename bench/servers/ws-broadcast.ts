// Baseline (b): the bare minimum broadcast server, as in ws's own README: POST /publish →
// the body, received once, written to every socket as a text frame.
import http from 'node:http';
import { WebSocketServer } from 'ws';

const port = Number(process.env.PORT ?? 0);
const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return res.writeHead(404).end();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const frame = Buffer.concat(chunks);
    for (const client of wss.clients) client.send(frame, { binary: false });
    res.writeHead(204).end();
  });
});
const wss = new WebSocketServer({ server, perMessageDeflate: false });
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.log(`READY ${typeof address === 'object' && address ? address.port : port}`);
});
