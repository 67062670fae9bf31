// Baseline (a): the bare minimum broadcast server. POST /publish → the body to every socket.
import http from 'node:http';
import { WebSocketServer } from 'ws';

const port = Number(process.env.PORT ?? 0);
const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return res.writeHead(404).end();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const frame = Buffer.concat(chunks).toString();
    for (const client of wss.clients) client.send(frame);
    res.writeHead(204).end();
  });
});
const wss = new WebSocketServer({ server });
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.log(`READY ${typeof address === 'object' && address ? address.port : port}`);
});
