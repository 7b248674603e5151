import { dialableHost, hostPort, isWildcardHost } from './listen-address';

describe('listen addresses', () => {
  it.each([
    ['127.0.0.1', 3000, '127.0.0.1:3000'],
    ['0.0.0.0', 50051, '0.0.0.0:50051'],
    ['::', 3000, '[::]:3000'],
    ['::1', 3000, '[::1]:3000'],
    ['[::1]', 3000, '[::1]:3000'],
    ['runtime.internal', 80, 'runtime.internal:80'],
  ])('names %s port %i as %s', (host, port, named) => {
    expect(hostPort(host, port)).toBe(named);
  });

  it('dials the loopback for a wildcard bind, the host itself otherwise', () => {
    expect(['0.0.0.0', '::', '[::]'].map(dialableHost)).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
    expect(dialableHost('10.1.2.3')).toBe('10.1.2.3');
    expect(isWildcardHost('127.0.0.1')).toBe(false);
  });
});
