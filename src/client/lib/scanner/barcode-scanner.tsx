/**
 * Camera barcode scanner (domain-free; load it lazily — it pulls in the decoder only when opened). Asks for
 * the camera when mounted (the user tapped "Scan"), prefers the back camera, decodes a few frames a second
 * (native BarcodeDetector or ZXing, Code 128 / QR / DataMatrix), takes a value after two equal consecutive
 * reads and not again for 2 s, gives vibration/beep feedback, offers the torch only when the camera has one,
 * explains a denied permission or a missing camera, and always offers manual entry (wedge scanners type too).
 * `validate` rejects a value with a message: the message is shown and scanning goes on.
 */
import { ActionIcon, Alert, Box, Button, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconBolt, IconBoltOff, IconCameraOff } from '@tabler/icons-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { scanFeedback } from './feedback';
import { createFrameDecoder } from './frame-decoder';
import { ReadFilter } from './read-filter';

export interface BarcodeScannerProps {
  /** A message when the value is not acceptable (shown; the camera keeps scanning), else null. */
  validate?: (value: string) => string | null;
  /** An accepted value, from the camera or typed. */
  onScan: (value: string, source: 'camera' | 'manual') => void;
  /** Label of the manual entry field. */
  manualLabel?: string;
  /** A message of the parent to show under the camera (e.g. "not found"). */
  notice?: string | null;
}

type CameraState = 'starting' | 'scanning' | 'denied' | 'no-camera' | 'busy' | 'failed';

const FRAME_INTERVAL_MS = 120;

function cameraError(e: unknown): CameraState {
  const name = e instanceof DOMException || e instanceof Error ? e.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return 'no-camera';
  if (name === 'NotReadableError' || name === 'TrackStartError' || name === 'AbortError') return 'busy';
  return 'failed';
}

interface TorchCapabilities extends MediaTrackCapabilities {
  torch?: boolean;
}

export function BarcodeScanner({ validate, onScan, manualLabel, notice }: BarcodeScannerProps) {
  const { t } = useTranslation('common');
  const videoRef = useRef<HTMLVideoElement>(null);
  const trackRef = useRef<MediaStreamTrack | null>(null);
  const [camera, setCamera] = useState<CameraState>('starting');
  const [torchAvailable, setTorchAvailable] = useState(false);
  const [torchOn, setTorchOn] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [manual, setManual] = useState('');
  const handlers = useRef({ validate, onScan });
  handlers.current = { validate, onScan };

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const filter = new ReadFilter();

    const start = async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setCamera('no-camera');
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          audio: false,
          video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
        });
      } catch (e) {
        if (!stopped) setCamera(cameraError(e));
        return;
      }
      if (stopped) {
        stream.getTracks().forEach((tr) => tr.stop());
        return;
      }
      const track = stream.getVideoTracks()[0] ?? null;
      trackRef.current = track;
      const caps = (track?.getCapabilities?.() ?? {}) as TorchCapabilities;
      setTorchAvailable(caps.torch === true);
      const video = videoRef.current;
      if (!video) return;
      video.srcObject = stream;
      video.muted = true;
      video.setAttribute('playsinline', 'true');
      try {
        await video.play();
      } catch {
        /* autoplay refused: frames still arrive once the element is shown */
      }
      let decoder;
      try {
        decoder = await createFrameDecoder();
      } catch {
        if (!stopped) setCamera('failed');
        return;
      }
      if (stopped) return;
      setCamera('scanning');
      const tick = async () => {
        if (stopped) return;
        if (video.readyState >= 2) {
          const text = await decoder.decode(video).catch(() => null);
          if (stopped) return;
          if (text === null) filter.miss();
          else {
            const value = filter.read(text, performance.now());
            if (value !== null) {
              const problem = handlers.current.validate?.(value) ?? null;
              setMessage(problem);
              scanFeedback(problem ? 'rejected' : 'ok');
              if (!problem) handlers.current.onScan(value, 'camera');
            }
          }
        }
        timer = setTimeout(() => void tick(), FRAME_INTERVAL_MS);
      };
      void tick();
    };
    void start();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      stream?.getTracks().forEach((tr) => tr.stop());
      trackRef.current = null;
    };
  }, []);

  const toggleTorch = async () => {
    const track = trackRef.current;
    if (!track) return;
    const next = !torchOn;
    try {
      await track.applyConstraints({ advanced: [{ torch: next } as MediaTrackConstraintSet] });
      setTorchOn(next);
    } catch {
      setTorchAvailable(false);
    }
  };

  const submitManual = (e: FormEvent) => {
    e.preventDefault();
    const value = manual.trim();
    if (!value) return;
    const problem = validate?.(value) ?? null;
    setMessage(problem);
    if (!problem) onScan(value, 'manual');
  };

  const cameraProblem = camera === 'denied' || camera === 'no-camera' || camera === 'busy' || camera === 'failed';
  return (
    <Stack gap="sm" data-testid="barcode-scanner" data-camera={camera}>
      {cameraProblem ? (
        <Alert color={camera === 'denied' ? 'orange' : 'gray'} icon={<IconCameraOff size={18} />} title={t(`scanner.${camera}.title`)} data-testid="scanner-camera-problem">
          {t(`scanner.${camera}.hint`)}
        </Alert>
      ) : (
        <Box pos="relative" style={{ borderRadius: 8, overflow: 'hidden', background: '#000', aspectRatio: '4 / 3', maxHeight: '55dvh' }}>
          <video ref={videoRef} muted playsInline style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }} data-testid="scanner-video" />
          <Box
            aria-hidden
            pos="absolute"
            style={{ left: '8%', right: '8%', top: '35%', bottom: '35%', border: '2px solid rgba(255,255,255,0.85)', borderRadius: 6, pointerEvents: 'none' }}
          />
          {torchAvailable && (
            <Tooltip label={torchOn ? t('scanner.torchOff') : t('scanner.torchOn')}>
              <ActionIcon
                pos="absolute"
                top={8}
                right={8}
                size="xl"
                radius="xl"
                variant={torchOn ? 'filled' : 'white'}
                color="yellow"
                aria-label={torchOn ? t('scanner.torchOff') : t('scanner.torchOn')}
                aria-pressed={torchOn}
                onClick={() => void toggleTorch()}
                data-testid="scanner-torch"
              >
                {torchOn ? <IconBoltOff size={22} /> : <IconBolt size={22} />}
              </ActionIcon>
            </Tooltip>
          )}
          <Text
            pos="absolute"
            bottom={8}
            left={0}
            right={0}
            ta="center"
            size="sm"
            c="white"
            style={{ textShadow: '0 1px 2px #000' }}
            role="status"
            aria-live="polite"
          >
            {camera === 'starting' ? t('scanner.starting') : t('scanner.aim')}
          </Text>
        </Box>
      )}
      {message && (
        <Alert color="red" role="alert" data-testid="scanner-message">
          {message}
        </Alert>
      )}
      {notice && !message && (
        <Alert color="yellow" role="alert" data-testid="scanner-notice">
          {notice}
        </Alert>
      )}
      <form onSubmit={submitManual} noValidate>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            size="md"
            label={manualLabel ?? t('scanner.manual')}
            value={manual}
            onChange={(e) => setManual(e.currentTarget.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            enterKeyHint="go"
            data-testid="scanner-manual-input"
          />
          <Button type="submit" size="md" data-testid="scanner-manual-submit">
            {t('scanner.use')}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
