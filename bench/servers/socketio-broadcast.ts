// Baseline (c): socket.io's broadcast. POST /publish → io.emit('state', body) to every socket.
// The body is parsed once so the frame on the wire (42["state",{…}]) is as large as Sagan's,
// not a JSON string escaped inside JSON.
import http from 'node:http';
import { Server } from 'socket.io';

const port = Number(process.env.PORT ?? 0);
const server = http.createServer();
const io = new Server(server, {
  transports: ['websocket'],
  serveClient: false,
  perMessageDeflate: false,
});
server.on('request', (req, res) => {
  if (req.url?.startsWith('/socket.io')) return;
  if (req.method !== 'POST') return res.writeHead(404).end();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    io.emit('state', JSON.parse(Buffer.concat(chunks).toString()));
    res.writeHead(204).end();
  });
});
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.log(`READY ${typeof address === 'object' && address ? address.port : port}`);
});
