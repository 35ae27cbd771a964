/**
 * Why Speak's Generate cannot run with the chosen voice on the loaded model: the shared rule of
 * components/voice-blocker.ts, which the Timeline applies to every turn's voice.
 */
export { voiceBlocker as speakBlocker } from '../../components/voice-blocker';
