import fc from 'fast-check';
import { sha256Digest } from './digest';

const hex = (digest: string): string => digest.replace(/^sha256:/, '');

describe('sha256Digest (pure, for texts the state no longer holds)', () => {
  it('gives the FIPS 180-4 vectors and agrees with a reference across block boundaries and beyond the BMP', () => {
    expect(sha256Digest('')).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256Digest('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256Digest('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    // Reference values: Python's hashlib.sha256 of the UTF-8 bytes.
    expect(hex(sha256Digest('a'.repeat(55)))).toBe('9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318');
    expect(hex(sha256Digest('a'.repeat(56)))).toBe('b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a');
    expect(hex(sha256Digest('a'.repeat(64)))).toBe('ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb');
    expect(hex(sha256Digest('a'.repeat(1000)))).toBe(
      '41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3',
    );
    expect(hex(sha256Digest('Rapport: é, 漢字, 🙂.'))).toBe(
      'b659d377acf2b5ac0e1a1ab7409b5a6c6cac85c0db5cf972f24497f5f24e804b',
    );
  });

  it('tells texts apart (no collision among distinct random texts)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 80 }), { minLength: 2, maxLength: 30 }), (texts) => {
        expect(new Set(texts.map(sha256Digest)).size).toBe(texts.length);
      }),
    );
  });
});
